"""The local web page: the advisor, the hand review and the play page in a browser.

``app.make_app`` builds the Flask application (routes and JSON endpoints) over
the same Python API the command line uses; ``jobs`` runs the long queries off
the request threads with bounded queues; ``queries`` checks a request and turns
its answer into JSON; ``table`` is a game against the bots for the play page.
``cinch-sim serve`` starts it (docs/web.md).
"""

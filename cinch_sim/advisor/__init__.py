"""The hand advisor: what one concrete hand is worth at each bid and trump.

``advise`` checks the question (``query``), runs the conditioned simulations
and returns an ``Advice``, the numbers (``estimate``); ``present`` shows an
Advice as text, JSON or a chart, and ``evaluate_hand`` as a pandas DataFrame::

    from cinch_sim.advisor import advice_table, advise

    print(advice_table(advise("AS KS 5S 5C 2S 9H 3D 7C JD", seat=2)))
"""

from cinch_sim.advisor.estimate import Advice, advise, evaluate_hand
from cinch_sim.advisor.present import advice_dict, advice_table, plot_advice
from cinch_sim.advisor.query import AdvisorError

__all__ = [
    "Advice",
    "AdvisorError",
    "advice_dict",
    "advice_table",
    "advise",
    "evaluate_hand",
    "plot_advice",
]

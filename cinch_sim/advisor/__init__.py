"""The hand advisor: what one concrete hand is worth at each bid and trump."""

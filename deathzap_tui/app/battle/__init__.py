"""The battle screen: the board (units, score, deck, hand, clock), the log, a unit's
card and the cover over hidden information."""

"""What simulated and exact analysis says about a set: simulation reports and charts, best
reachable scores, bonus-token analysis and reward calibration.
"""

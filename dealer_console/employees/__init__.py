"""Employees and their cards: who may confirm a jackpot award or back one out."""

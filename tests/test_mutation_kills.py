"""Tests written from the rules that kill mutants the older tests let live (bench/mutation.py)."""

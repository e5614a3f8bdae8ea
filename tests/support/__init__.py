"""Test support shared by the tests and the benchmarks: live servers, clients, databases."""

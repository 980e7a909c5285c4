"""Capture on a machine without a vault, shipped to the home machine over OpenSSH through a spool."""

"""Test doubles shared by several test folders (no tests here)."""

"""Shared by alternate.py, first_entry.py and paired.py: a command line
as words and an environment."""
import shlex


def split(command, env):
    """The command's words, and env with the command's leading NAME=VALUE
    words added (set for that command only, with no env(1) process in
    between)."""
    words, cenv = shlex.split(command), dict(env)
    while words and "=" in words[0] and not words[0].startswith("/"):
        k, _, v = words.pop(0).partition("=")
        cenv[k] = v
    return words, cenv

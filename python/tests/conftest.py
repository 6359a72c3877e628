"""Shared test setup."""

import signal

# Python turns SIGINT (and _thread.interrupt_main) into KeyboardInterrupt
# only when the process started with SIGINT at its default disposition; a
# shell's background job (`cmd &`, as some CI runners start the suite)
# inherits it ignored, and then no Ctrl-C test could pass. Ctrl-C is what the
# interrupt tests check, so install Python's handler as an interactive
# session has it.
signal.signal(signal.SIGINT, signal.default_int_handler)

"""opscope.TraceError: pure Python so it can be caught and pickled without the engine."""


class TraceError(Exception):
    """A trace (or a request on it) the engine refused: the one-line message the binary
    prints, and the exit code it would return (2 usage, 3 cannot read, 4 invalid input,
    5 cancelled)."""

    def __init__(self, message, exit_code=4):
        super().__init__(message, exit_code)
        self.message = message
        self.exit_code = exit_code

    def __str__(self):
        return self.message

    def __reduce__(self):
        return (TraceError, (self.message, self.exit_code))

package dev.gpugen.cli;

/** A failure with a message for the user and the exit code it maps to. */
final class GpugenException extends Exception {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  GpugenException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}

package dev.gpugen.write;

/**
 * Writing was refused or failed. {@link #refused()} tells a policy refusal (user files in the way,
 * hand edits: exit 1 with a hint) from an I/O failure (exit 3).
 */
public final class WriteException extends Exception {
  private static final long serialVersionUID = 1L;
  private final boolean refused;

  WriteException(String message, boolean refused, Throwable cause) {
    super(message, cause);
    this.refused = refused;
  }

  public boolean refused() {
    return refused;
  }
}

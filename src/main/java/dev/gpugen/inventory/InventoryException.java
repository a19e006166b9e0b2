package dev.gpugen.inventory;

/**
 * A failure the inventory reports as one line on stderr with a documented exit code; the message
 * names the cause and the setting to fix, and never contains a secret.
 */
public final class InventoryException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  public InventoryException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public InventoryException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** The process exit code, one of {@link dev.gpugen.ExitCodes}. */
  public int exitCode() {
    return exitCode;
  }
}

package dev.gpugen.failure;

/**
 * The user's input is wrong: the spec, a file they named, a setting, or the command-line arguments
 * ({@link #usage()}, which the CLI answers with the command's usage line).
 */
public final class InvalidInput extends Failure {
  private static final long serialVersionUID = 1L;
  private final boolean usage;

  private InvalidInput(String message, boolean usage, Throwable cause) {
    super(message, cause);
    this.usage = usage;
  }

  public InvalidInput(String message) {
    this(message, false, null);
  }

  public InvalidInput(String message, Throwable cause) {
    this(message, false, cause);
  }

  /** The arguments are wrong (an option's value, two specs into one folder). */
  public static InvalidInput usage(String message) {
    return new InvalidInput(message, true, null);
  }

  public boolean usage() {
    return usage;
  }

  @Override
  public Kind kind() {
    return Kind.INVALID_INPUT;
  }

  @Override
  public InvalidInput prefixed(String prefix) {
    return new InvalidInput(prefix + getMessage(), usage, this);
  }
}

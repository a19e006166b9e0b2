package dev.gpugen.failure;

/**
 * A bug in gpugen: its own data or templates are broken, or an invariant does not hold. A {@code
 * --templates} override that fails to render is reported the same way (README's exit code 4): the
 * message names the template and line. The CLI prints the stack trace only with {@code --verbose}.
 */
public final class InternalFailure extends Failure {
  private static final long serialVersionUID = 1L;

  /** What a report needs; appended where the failure can only be gpugen's own. */
  public static final String REPORT = "(please report it with the output of --verbose)";

  public InternalFailure(String message) {
    super(message, null);
  }

  public InternalFailure(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public Kind kind() {
    return Kind.INTERNAL;
  }

  @Override
  public InternalFailure prefixed(String prefix) {
    return new InternalFailure(prefix + getMessage(), this);
  }
}

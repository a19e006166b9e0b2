package dev.gpugen.failure;

/**
 * Something outside gpugen's control failed: a tool, the network, AWS, the file system (a file that
 * cannot be read or written, or one gpugen refuses to read: a link, a pipe, too large).
 */
public final class EnvironmentFailure extends Failure {
  private static final long serialVersionUID = 1L;

  public EnvironmentFailure(String message) {
    super(message, null);
  }

  public EnvironmentFailure(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public Kind kind() {
    return Kind.ENVIRONMENT;
  }

  @Override
  public EnvironmentFailure prefixed(String prefix) {
    return new EnvironmentFailure(prefix + getMessage(), this);
  }
}

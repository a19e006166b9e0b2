package dev.gpugen.failure;

/**
 * The one error type of gpugen: every stage throws one of its three kinds and the CLI maps the kind
 * to an exit code in one place ({@code cli/ExitCodes.of}). The message is for the user: where
 * (file:line:column when there is one), what is wrong and how to fix it; it never holds a secret.
 *
 * <p>Unchecked, because the knowledge base and version parsing fail deep inside pure code that has
 * no business declaring them, and because every failure ends in the same handler anyway. Sealed
 * with final kinds in this package: a stage-specific subclass would have to live here too (a sealed
 * class permits only its own package outside a named module), so stages say which stage failed in
 * the message instead.
 */
public abstract sealed class Failure extends RuntimeException
    permits InvalidInput, EnvironmentFailure, InternalFailure {
  private static final long serialVersionUID = 1L;

  /** What the user can do about it, which decides the exit code. */
  public enum Kind {
    /** The user's spec, arguments or files are wrong: fix them. */
    INVALID_INPUT,
    /** A tool, the network, AWS or the file system failed: not gpugen's fault, often retryable. */
    ENVIRONMENT,
    /** A bug in gpugen (or a broken {@code --templates} override): report it. */
    INTERNAL
  }

  Failure(String message, Throwable cause) {
    super(message, cause);
  }

  public abstract Kind kind();

  /**
   * The same kind of failure with {@code prefix} before the message (the file or the command the
   * caller knows and the thrower did not); this failure becomes its cause.
   */
  public abstract Failure prefixed(String prefix);
}

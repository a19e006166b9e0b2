package dev.gpugen.cli;

import dev.gpugen.failure.Failure;
import dev.gpugen.failure.InvalidInput;

/**
 * The process exit codes gpugen documents in the README; every command returns one of these. The
 * library's errors carry a kind ({@link Failure.Kind}), never a code: {@link #of} is the one place
 * a kind becomes a code.
 */
public final class ExitCodes {
  /** Success: spec valid, render written or up to date. */
  public static final int OK = 0;

  /** The spec is invalid (diagnostics printed), or a render is stale ({@code --check}). */
  public static final int INVALID = 1;

  /** Bad command-line usage (picocli's own code). */
  public static final int USAGE = 2;

  /** Environment failure: I/O, or a cloud API that could not be reached or refused us. */
  public static final int ENVIRONMENT = 3;

  /** A bug in gpugen itself. */
  public static final int INTERNAL = 4;

  /**
   * A step of {@code gpugen up} or {@code gpugen down} failed: the message names the step and the
   * tool's own exit code (which would otherwise read as one of the codes above).
   */
  public static final int STEP_FAILED = 5;

  private ExitCodes() {}

  /** The exit code of a failure: README's table, by kind. */
  public static int of(Failure f) {
    return switch (f.kind()) {
      case INVALID_INPUT -> f instanceof InvalidInput i && i.usage() ? USAGE : INVALID;
      case ENVIRONMENT -> ENVIRONMENT;
      case INTERNAL -> INTERNAL;
    };
  }
}

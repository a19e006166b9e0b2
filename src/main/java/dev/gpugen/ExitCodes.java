package dev.gpugen;

/**
 * The process exit codes gpugen documents in the README; every command returns one of these. They
 * live with the library, not the CLI, because library errors (the inventory's) carry them.
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

  private ExitCodes() {}
}

package dev.gpugen.cli;

import dev.gpugen.failure.Failure;
import dev.gpugen.failure.InternalFailure;
import dev.gpugen.spec.Printable;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Maps what escapes a command to one line and an exit code. Stack traces only with --verbose: users
 * see what to do, bug reports get the detail when asked.
 */
final class Failures implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
    PrintWriter err = cl.getErr();
    boolean verbose =
        parsed.hasMatchedOption("--verbose")
            || (parsed.subcommand() != null && parsed.subcommand().hasMatchedOption("--verbose"));
    int code;
    if (e instanceof Failure f) {
      String message = Printable.text(f.getMessage());
      // "gpugen up: ..." already says who speaks: no "gpugen: gpugen up: ...".
      err.println(message.startsWith("gpugen ") ? message : "gpugen: " + message);
      code = ExitCodes.of(f);
    } else {
      err.println(
          "gpugen: internal error: " + Printable.text(e.toString()) + " " + InternalFailure.REPORT);
      code = ExitCodes.INTERNAL;
    }
    if (verbose) {
      e.printStackTrace(err);
    }
    err.flush();
    return code;
  }
}

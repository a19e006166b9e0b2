package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import java.io.PrintWriter;
import picocli.CommandLine;

/** Entry point; the only place that calls System.exit. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** The library with gpugen's knowledge base wired in, as every command uses it. */
  public static Gpugen library() {
    return Knowledge.gpugen();
  }

  /** Runs one command line and returns its exit code; tests call this. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = GpugenCommand.commandLine(args);
    cl.setOut(out);
    cl.setErr(err);
    return cl.execute(args);
  }
}

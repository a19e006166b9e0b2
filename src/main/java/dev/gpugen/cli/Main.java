package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Entry point; the only place that calls System.exit. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // UTF-8 whatever the platform default, buffered (an inventory --list of 16,000 hosts is one
    // large write) and flushed once at the end; errors unbuffered so they are never lost.
    PrintWriter out =
        new PrintWriter(
            new BufferedWriter(
                new OutputStreamWriter(
                    new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8)));
    PrintWriter err =
        new PrintWriter(
            new OutputStreamWriter(
                new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8),
            true);
    int code = InventoryCommand.runAsAnsible(args, out, err).orElseGet(() -> run(args, out, err));
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** The library with gpugen's knowledge base wired in, as every command uses it. */
  public static Gpugen library() {
    return Knowledge.gpugen();
  }

  /** Runs one command line and returns its exit code; tests call this. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    Warmup.start(args);
    CommandLine cl = GpugenCommand.commandLine(args);
    cl.setOut(out);
    cl.setErr(err);
    return cl.execute(args);
  }
}

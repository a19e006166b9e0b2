package dev.gpugen.inventory;

import dev.gpugen.cli.InventoryCommand;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * A stand-in for the root {@code gpugen} command (owned by the CLI's main) with only the {@code
 * inventory} subcommand, so the Ansible test can run the rendered {@code gpugen-inventory} script
 * exactly as users will: {@code java -jar "$GPUGEN_JAR" inventory --config ... --list}.
 */
@Command(name = "gpugen", subcommands = InventoryCommand.class)
public final class TestGpugenMain {
  public static void main(String[] args) {
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
    int code = new CommandLine(new TestGpugenMain()).setOut(out).setErr(err).execute(args);
    out.flush();
    err.flush();
    System.exit(code);
  }
}

package dev.gpugen.inventory;

import dev.gpugen.cli.InventoryCommand;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * {@code java -cp gpugen.jar dev.gpugen.inventory.InventoryMain --list}: the inventory command
 * without the root {@code gpugen} command, for launchers that want nothing else loaded.
 */
public final class InventoryMain {
  private InventoryMain() {}

  public static void main(String[] args) {
    PrintWriter out =
        new PrintWriter(
            new BufferedWriter(
                new OutputStreamWriter(
                    new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8),
                1 << 16));
    PrintWriter err =
        new PrintWriter(
            new OutputStreamWriter(
                new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8),
            true);
    int code = new CommandLine(new InventoryCommand()).setOut(out).setErr(err).execute(args);
    out.flush();
    err.flush();
    System.exit(code);
  }
}

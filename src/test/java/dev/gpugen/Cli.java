package dev.gpugen;

import dev.gpugen.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the real command line in-process and captures what it prints. */
public record Cli(int exit, String out, String err) {
  public static Cli run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Cli(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}

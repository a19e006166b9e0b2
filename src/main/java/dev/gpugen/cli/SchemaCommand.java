package dev.gpugen.cli;

import dev.gpugen.spec.yaml.SchemaWriter;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gpugen schema}: the spec grammar as JSON Schema, for editors' YAML completion. */
@Command(
    modelTransformer = VerboseOption.Added.class,
    name = "schema",
    mixinStandardHelpOptions = true,
    description = "Print the JSON Schema of the spec (or the key table of docs/spec.md).")
final class SchemaCommand implements Callable<Integer> {
  enum Format {
    json,
    markdown
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--format", description = "json (default) or markdown.")
  Format format = Format.json;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (format == Format.json) {
      out.println(SchemaWriter.jsonSchema().toPrettyString());
    } else {
      out.print(SchemaWriter.markdown());
    }
    out.flush();
    return ExitCodes.OK;
  }
}

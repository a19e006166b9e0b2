package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.lint.Rules;
import dev.gpugen.lint.rules.spec.SpecLintSettings;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.yaml.ReaderRules;
import dev.gpugen.spec.yaml.Suggest;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Options every command that reads a spec shares. Built with picocli's programmatic API ({@link
 * CliModel}); annotated commands add them with {@code @Command(modelTransformer =
 * SpecOptions.Added.class)} and hand over their instance as a {@link Holder}.
 */
final class SpecOptions {
  String env;
  List<String> skipRules = List.of();
  Severity failOn = Severity.ERROR;
  boolean noSpecSuppressions;

  /** A command that reads a spec. */
  interface Holder {
    SpecOptions options();
  }

  /** Adds the options to an annotated command's model, bound to its {@link Holder#options()}. */
  static final class Added implements CommandLine.IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec spec) {
      return CliModel.addBeforeHelp(spec, ((Holder) spec.userObject()).options().specs());
    }
  }

  /** Adds these options, and {@code --verbose}, to {@code spec}. */
  CommandSpec addTo(CommandSpec spec) {
    specs().forEach(spec::addOption);
    return spec;
  }

  /** These options, and {@code --verbose}, bound to this instance. */
  private List<OptionSpec> specs() {
    return List.of(
        CliModel.option(
            String.class,
            null,
            v -> env = v,
            "NAME",
            "Apply the overlay environments.NAME (and tag the cluster with it).",
            "--env"),
        CliModel.repeated(
            v -> skipRules = v, "ID", "Do not run this lint rule (repeatable).", "--skip-rule"),
        CliModel.option(
            Severity.class,
            Severity.ERROR,
            v -> failOn = v,
            "SEVERITY",
            "Fail on findings of this severity or worse: error (default), warning or info.",
            "--fail-on"),
        CliModel.flag(
            v -> noSpecSuppressions = v,
            "Ignore the spec's lint.skip and lint.severity (for CI: only the command line decides).",
            "--no-spec-suppressions"),
        VerboseOption.spec());
  }

  Optional<String> env() {
    return Optional.ofNullable(env);
  }

  /** The --skip-rule ids; an id that names no lint rule is a usage error (exit 2). */
  Set<String> skip() {
    Set<String> ids = new TreeSet<>();
    Rules.all().forEach(r -> ids.add(r.id()));
    for (String id : skipRules) {
      if (id.equals(SpecLintSettings.ID) || ReaderRules.doc(id).isPresent()) {
        throw InvalidInput.usage(
            "--skip-rule "
                + id
                + ": "
                + (id.equals(SpecLintSettings.ID) ? "this rule" : "a spec reader error")
                + " cannot be skipped; fix what the finding says");
      }
      if (!ids.contains(id)) {
        String near = Suggest.closest(id, ids);
        throw InvalidInput.usage(
            "--skip-rule "
                + id
                + " is not a rule id"
                + (near == null ? "" : "; did you mean " + near + "?")
                + " (gpugen explain lists them)");
      }
    }
    return new LinkedHashSet<>(skipRules);
  }

  Gpugen.Checked check(Gpugen gpugen, Path file) {
    return check(gpugen, file, env());
  }

  /** Reads and lints {@code file} with the overlay {@code environment} (not --env). */
  Gpugen.Checked check(Gpugen gpugen, Path file, Optional<String> environment) {
    try {
      return gpugen.check(file, file.toString(), environment, skip(), !noSpecSuppressions);
    } catch (NoSuchFileException e) {
      throw new EnvironmentFailure(file + ": no such file", e);
    } catch (EnvironmentFailure e) {
      throw e.prefixed(file + ": ");
    } catch (IOException e) {
      throw new EnvironmentFailure(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  boolean fails(Gpugen.Checked c) {
    return c.spec().isEmpty()
        || c.diagnostics().stream().anyMatch(d -> d.severity().atLeast(failOn));
  }

  /**
   * Prints {@code c}'s findings on {@code err} and, when they fail the run ({@link #fails}), the
   * one summary line ending in {@code outcome} ("nothing rendered"); returns whether they fail it.
   */
  boolean printFails(PrintWriter err, Path file, Gpugen.Checked c, String outcome) {
    if (!c.diagnostics().isEmpty()) {
      DiagnosticPrinter.text(err, c);
    }
    if (!fails(c)) {
      return false;
    }
    err.println(
        Printable.text(file.toString())
            + ": "
            + DiagnosticPrinter.summary(c.diagnostics())
            + "; "
            + outcome);
    err.flush();
    return true;
  }
}

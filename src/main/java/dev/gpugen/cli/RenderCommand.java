package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.render.Templates;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.ShellCommand;
import dev.gpugen.write.Manifest;
import dev.gpugen.write.TreeWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** {@code gpugen render SPEC}: validate, render in memory, then write (or compare with --check). */
final class RenderCommand implements Callable<Integer> {
  final CommandSpec spec =
      CliModel.command(
          this,
          "render",
          "Validate a spec and render its Terraform and Ansible into a folder.",
          "Nothing is written when the spec has errors; files gpugen did not write are never"
              + " touched.",
          "Several specs, or --all-envs, render each into its default folder in one run: what"
              + " pre-commit and CI use with --check.");
  List<Path> files;
  Path output;
  boolean check;
  boolean allEnvs;
  Path templates;
  boolean force;
  boolean oneLineInvalid;
  boolean allowReplace;
  boolean quiet;
  final SpecOptions options = new SpecOptions();

  RenderCommand() {
    spec.addPositional(CliModel.paths(v -> files = v, "SPEC", "The cluster spec(s)."));
    spec.addOption(
        CliModel.option(
            Path.class,
            null,
            v -> output = v,
            "DIR",
            "Output folder (default: roles-generated/<name>, or <name>-<env> with --env).",
            "-o",
            "--output"));
    spec.addOption(
        CliModel.flag(
            v -> check = v,
            "Write nothing; print a diff and exit 1 when the folder is not up to date.",
            "--check"));
    spec.addOption(
        CliModel.flag(
            v -> allEnvs = v,
            "The base spec and every environment it declares, each into its default folder.",
            "--all-envs"));
    spec.addOption(
        CliModel.option(
            Path.class,
            null,
            v -> templates = v,
            "DIR",
            "Override built-in templates file by file from DIR.",
            "--templates"));
    spec.addOption(
        CliModel.flag(
            v -> force = v,
            "Write into a folder gpugen did not create or another spec rendered, or over"
                + " hand-edited files.",
            "--force"));
    // For the pre-commit render check: the validate hook of the same commit prints an invalid
    // spec's findings, so this one says so in one line instead of printing them a second time.
    spec.addOption(
        OptionSpec.builder(CliModel.flag(v -> oneLineInvalid = v, "", "--one-line-invalid"))
            .hidden(true)
            .build());
    spec.addOption(
        CliModel.flag(
            v -> allowReplace = v,
            "Accept the spec's node settings as they are now: where a change of them (instance"
                + " type, fabric, image, key pair, market, placement, zone, ...) replaces a pool's"
                + " nodes, terraform apply may do so. Without it Terraform refuses such a plan.",
            "--allow-replace"));
    spec.addOption(
        CliModel.flag(
            v -> quiet = v,
            "Print only the one-line summary, not the next steps.",
            "-q",
            "--quiet"));
    options.addTo(spec);
  }

  @Override
  public Integer call() {
    if (output != null && (files.size() > 1 || allEnvs)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "-o DIR takes one spec and one environment; without it each render goes to its"
              + " default folder");
    }
    if (allEnvs && options.env != null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--all-envs and --env NAME exclude each other");
    }
    for (Path f : files) {
      UsageErrors.requirePasteable(spec.commandLine(), "SPEC", f);
    }
    UsageErrors.requirePasteable(spec.commandLine(), "-o", output);
    UsageErrors.requirePasteable(spec.commandLine(), "--templates", templates);
    Gpugen gpugen = Knowledge.gpugen();
    List<Target> targets = new ArrayList<>();
    for (Path file : files) {
      Gpugen.Checked base = options.check(gpugen, file, options.env());
      targets.add(new Target(file, base));
      if (allEnvs && !options.fails(base)) {
        for (String env : base.spec().orElseThrow().environments()) {
          targets.add(new Target(file, options.check(gpugen, file, Optional.of(env))));
        }
      }
    }
    sharedFolders(targets);
    int result = ExitCodes.OK;
    boolean driverUpgrade = false;
    for (Target t : targets) {
      Rendered r = renderOne(gpugen, t.file(), t.checked());
      result = Math.max(result, r.code());
      driverUpgrade |= r.driverUpgrade();
    }
    if (result == ExitCodes.OK && !check && !quiet && targets.size() == 1) {
      Target t = targets.get(0);
      PrintWriter out = spec.commandLine().getOut();
      out.print(
          NextSteps.of(
              t.checked().plan().orElseThrow(),
              new NextSteps.Invocation(t.file(), Optional.ofNullable(output), templates != null),
              folder(t.checked()),
              driverUpgrade));
      out.flush();
    }
    return result;
  }

  /** One spec file in one environment. */
  private record Target(Path file, Gpugen.Checked checked) {}

  /**
   * A render's exit code and whether the nodes need {@code upgrade-driver.yml}: this render changed
   * the driver, or an earlier one did and no {@code gpugen up} has rolled it out since.
   */
  private record Rendered(int code, boolean driverUpgrade) {
    Rendered(int code) {
      this(code, false);
    }
  }

  /**
   * Two renders into one folder would delete each other's files (the second render removes what the
   * first wrote and it does not make): refused before anything is written, naming both.
   */
  private void sharedFolders(List<Target> targets) {
    java.util.Map<Path, Target> byFolder = new java.util.HashMap<>();
    for (Target t : targets) {
      if (options.fails(t.checked())) {
        continue;
      }
      Path dir = folder(t.checked()).toAbsolutePath().normalize();
      Target other = byFolder.putIfAbsent(dir, t);
      // The same spec named twice renders the same files twice: harmless.
      if (other != null && !same(other, t)) {
        throw InvalidInput.usage(
            describe(other)
                + " and "
                + describe(t)
                + " both render into "
                + folder(t.checked())
                + ": give them different metadata.name (or environments), or render each with"
                + " its own -o DIR");
      }
    }
  }

  private static boolean same(Target a, Target b) {
    return a.file().toAbsolutePath().normalize().equals(b.file().toAbsolutePath().normalize())
        && describe(a).equals(describe(b));
  }

  private static String describe(Target t) {
    return t.file()
        + t.checked()
            .spec()
            .flatMap(ClusterSpec::selectedEnvironment)
            .map(e -> " --env " + e)
            .orElse("");
  }

  private Path folder(Gpugen.Checked checked) {
    return output != null ? output : defaultDir(checked.spec().orElseThrow());
  }

  /** Loaded on first use: an invalid spec never pays for FreeMarker's start-up. */
  private Templates loaded;

  private Templates templates() {
    if (loaded == null) {
      loaded =
          templates == null ? Warmup.builtInTemplates() : Templates.load(Optional.of(templates));
    }
    return loaded;
  }

  private Rendered renderOne(Gpugen gpugen, Path file, Gpugen.Checked checked) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (oneLineInvalid && options.fails(checked)) {
      err.println(
          Printable.text(file.toString())
              + ": spec invalid ("
              + DiagnosticPrinter.summary(checked.diagnostics())
              + "), see gpugen-validate");
      err.flush();
      return new Rendered(ExitCodes.INVALID);
    }
    if (options.printFails(err, file, checked, "nothing rendered")) {
      return new Rendered(ExitCodes.INVALID);
    }
    ClusterSpec cluster = checked.spec().orElseThrow();
    Path dir = folder(checked);
    Impact.Kept kept = Impact.kept(dir, checked.plan().orElseThrow(), allowReplace && !check);
    ClusterPlan plan = kept.plan();
    java.util.SortedMap<String, java.util.SortedMap<String, Object>> accepted = kept.accepted();
    java.util.SortedMap<String, java.util.SortedMap<String, Object>> allowed = kept.allowed();
    RenderedTree tree = gpugen.render(plan, templates(), Impact.label(dir, file), allowed);
    {
      if (check) {
        if (!TreeWriter.rendered(dir)) {
          // Not stale but missing: one line, not a diff of every file the render would write.
          err.println(
              Printable.text(dir.toString())
                  + " holds no render of "
                  + Printable.text(file.toString())
                  + " (no "
                  + Manifest.FILE_NAME
                  + "); run: "
                  + ShellCommand.of(renderCommand(file, cluster)));
          err.flush();
          return new Rendered(ExitCodes.INVALID);
        }
        TreeWriter.checkOwner(dir, Impact.source(dir, file, plan, accepted, allowed), force);
        String diff = TreeWriter.check(dir, tree);
        if (!diff.isEmpty()) {
          out.print(diff);
          out.flush();
          err.println(
              Printable.text(dir.toString())
                  + " is stale against "
                  + Printable.text(file.toString())
                  + "; run: "
                  + ShellCommand.of(renderCommand(file, cluster)));
          err.flush();
          return new Rendered(ExitCodes.INVALID);
        }
        out.println(
            Printable.text(dir.toString()) + " is up to date (" + tree.files().size() + " files)");
        out.flush();
        return new Rendered(ExitCodes.OK);
      }
      if (!allowReplace) {
        java.util.SortedMap<String, String> renumbered = Impact.renumbered(dir, plan);
        if (!renumbered.isEmpty()) {
          renumbered.forEach(
              (pool, what) ->
                  err.println(
                      Printable.text(
                          file
                              + ": pools["
                              + pool
                              + "]: its node keys change: terraform apply "
                              + what
                              + " (count takes the lowest keys retire does not list, so a deleted"
                              + " retire entry moves a node); keep the retire entry, or allow it"
                              + " with --allow-replace")));
          err.println(Printable.text(dir.toString()) + ": nothing rendered");
          err.flush();
          return new Rendered(ExitCodes.INVALID);
        }
      }
      Manifest.Source source = Impact.source(dir, file, plan, accepted, allowed);
      TreeWriter.Summary s = TreeWriter.write(dir, tree, Optional.of(source), force);
      out.println(
          "rendered "
              + Printable.text(dir.toString())
              + ": "
              + s.written()
              + " written, "
              + s.unchanged()
              + " unchanged, "
              + s.deleted()
              + " deleted");
      out.flush();
      Impact.print(out, s.previous(), plan);
      Impact.printReplacement(out, accepted, plan, allowReplace, s.previous());
      return new Rendered(ExitCodes.OK, source.driverUpgradePending());
    }
  }

  /** The render that brings {@code file}'s folder up to date, as words of a command. */
  private List<String> renderCommand(Path file, ClusterSpec cluster) {
    List<String> words =
        new ArrayList<>(List.of("gpugen", "render", ShellCommand.path(file.toString())));
    if (output != null) {
      words.addAll(List.of("-o", ShellCommand.path(output.toString())));
    }
    cluster.selectedEnvironment().ifPresent(e -> words.addAll(List.of("--env", e)));
    if (templates != null) {
      words.addAll(List.of("--templates", ShellCommand.path(templates.toString())));
    }
    return words;
  }

  private static Path defaultDir(ClusterSpec c) {
    return Path.of(c.outputFolder());
  }
}

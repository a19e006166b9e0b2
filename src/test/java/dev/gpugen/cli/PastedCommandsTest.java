package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.spec.Printable;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Every command gpugen prints for a person to paste (render's next steps, the render check's hint,
 * the steps of up and down, init's next command), with the spec, the output folder and the override
 * folder named with everything a shell or a terminal acts on, pasted line by line into dash
 * (Debian's sh) and bash. Each program the lines start is a stand-in on PATH that records its name,
 * folder and arguments: nothing else runs (no PWNED file), and each records exactly the argv gpugen
 * meant (for up and down: the argv gpugen itself ran). Nothing printed holds a raw control
 * character, ESC or bidi override.
 */
@RealToolsTest
class PastedCommandsTest {
  /** What a shell would expand, split or run, and what a terminal would act on. */
  static final String HOSTILE =
      "x $(touch PWNED) `touch PWNED2` 'q' \"d\" \\ !! ; & | < > * ? ~ {a,b} %s $HOME"
          + " \n nl \t tab \u001b[31m red \u001b]0;title\u0007 \u202e bidi \u0085 c1";

  /** Records "name NUL cwd NUL argc NUL args..." for each run. */
  private static final String STAND_IN =
      "#!/bin/sh\nprintf '%s\\0' \"${0##*/}\" \"$PWD\" \"$#\" \"$@\" >> \"$PASTE_LOG\"\n";

  private static final List<String> TOOLS =
      List.of("terraform", "aws", "ansible-galaxy", "ansible", "ansible-playbook", "gpugen");

  @TempDir Path tmp;
  Path bin;
  Path work;

  /** One run of a stand-in: which program, in which folder, with which arguments. */
  record Call(String tool, String cwd, List<String> args) {}

  @BeforeEach
  void setUp() throws Exception {
    bin = Files.createDirectories(tmp.resolve("bin"));
    Path script = bin.resolve("stand-in");
    Files.writeString(script, STAND_IN);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String tool : TOOLS) {
      Files.createSymbolicLink(bin.resolve(tool), script);
    }
    work = Files.createDirectories(tmp.resolve("work"));
  }

  private Path hostileSpec(String example) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("specs " + HOSTILE));
    return Files.writeString(
        dir.resolve("c " + HOSTILE + ".yaml"), Files.readString(Path.of(example)));
  }

  /** The lines pasted, one by one, into {@code shell} in one session; the calls they made. */
  private List<Call> paste(String shell, List<String> lines) throws Exception {
    Path log = tmp.resolve(shell + ".log");
    Files.deleteIfExists(log);
    Path script = tmp.resolve(shell + ".pasted");
    Files.writeString(script, String.join("\n", lines) + "\n");
    RealTools.Result r =
        RealTools.run(
            work,
            Duration.ofMinutes(1),
            Map.of(
                "PATH",
                bin + ":/usr/bin:/bin",
                "PASTE_LOG",
                log.toString(),
                "HOME",
                "/nonexistent"),
            shell,
            script.toString());
    assertEquals(0, r.exitCode(), shell + ":\n" + r.output() + "\n" + String.join("\n", lines));
    assertNothingRan();
    return calls(log);
  }

  private static List<Call> calls(Path log) throws Exception {
    List<Call> out = new ArrayList<>();
    if (!Files.exists(log)) {
      return out;
    }
    String[] f = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\0", -1);
    int i = 0;
    while (i + 2 < f.length) {
      int n = Integer.parseInt(f[i + 2]);
      out.add(new Call(f[i], f[i + 1], List.of(f).subList(i + 3, i + 3 + n)));
      i += 3 + n;
    }
    return out;
  }

  private void assertNothingRan() throws Exception {
    try (Stream<Path> s = Files.walk(tmp)) {
      List<Path> pwned = s.filter(p -> p.getFileName().toString().startsWith("PWNED")).toList();
      assertEquals(List.of(), pwned, "a pasted line ran code from a name");
    }
    assertFalse(Files.exists(Path.of("PWNED")) || Files.exists(Path.of("PWNED2")));
  }

  /** Printed text holds no character a terminal would act on (line feeds end lines). */
  private static void assertPrintable(String printed) {
    for (int i = 0; i < printed.length(); i++) {
      char c = printed.charAt(i);
      assertTrue(
          c == '\n' || !Printable.unsafe(c),
          "raw " + Printable.name(c) + " at " + i + " of:\n" + Printable.text(printed));
    }
  }

  private static final Pattern STEP =
      Pattern.compile("^  \\d+\\. ((?:terraform|aws|\\(cd|ansible-playbook) .*)$");

  /** The command part of each numbered step and of the "gpugen up" line of the next steps. */
  private static List<String> nextSteps(String out) {
    List<String> commands = new ArrayList<>();
    for (String line : out.split("\n")) {
      Matcher m = STEP.matcher(line);
      if (m.matches()) {
        // Drop the explanation after the command ("   (the EKS cluster's kubeconfig ...)").
        commands.add(m.group(1).replaceFirst(" {3}\\(.*$", ""));
      } else if (line.contains(": gpugen up ")) {
        commands.add(line.substring(line.indexOf(": gpugen up ") + 2));
      }
    }
    return commands;
  }

  @ParameterizedTest
  @ValueSource(strings = {"sh", "bash"})
  void renderNextStepsPasteAsTheIntendedCommands(String shell) throws Exception {
    Path spec = hostileSpec("examples/aws-h100/cluster.yaml");
    Path out = tmp.resolve("out " + HOSTILE);
    Cli r = Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    assertPrintable(r.out());
    assertPrintable(r.err());
    assertTrue(r.out().startsWith("rendered " + Printable.text(out.toString()) + ": "), r.out());
    List<String> lines = nextSteps(r.out());
    assertEquals(6, lines.size(), r.out());

    String tf = out.resolve("terraform").toString();
    String ansible = out.resolve("ansible").toString();
    assertEquals(
        List.of(
            // The collections first (a Galaxy failure leaves nothing billing); each step from the
            // folder the user pasted into, the Ansible ones in a subshell in the ansible folder.
            new Call(
                "ansible-galaxy",
                ansible,
                List.of("collection", "install", "-r", "requirements.yml")),
            new Call("terraform", work.toString(), List.of("-chdir=" + tf, "init")),
            new Call("terraform", work.toString(), List.of("-chdir=" + tf, "apply")),
            new Call(
                "aws",
                work.toString(),
                List.of(
                    "eks",
                    "update-kubeconfig",
                    "--region",
                    "us-east-1",
                    "--name",
                    "h100-training-prod",
                    "--kubeconfig",
                    out.resolve("ansible/.state/kubeconfig").toString())),
            new Call("ansible-playbook", ansible, List.of("-i", "gpugen-inventory", "site.yml")),
            // Into the same folder as the render: without -o, up would render into the default one.
            new Call(
                "gpugen", work.toString(), List.of("up", spec.toString(), "-o", out.toString()))),
        paste(shell, lines));
  }

  @ParameterizedTest
  @ValueSource(strings = {"sh", "bash"})
  void theRenderChecksHintPastesAsTheRenderThatFixesIt(String shell) throws Exception {
    Path spec = hostileSpec("examples/aws-h100/cluster.yaml");
    Path out = tmp.resolve("out " + HOSTILE);
    Path templates = Files.createDirectories(tmp.resolve("templates " + HOSTILE + "/ansible"));
    Files.copy(
        Path.of("templates/ansible/02-container-runtime.yml"),
        templates.resolve("02-container-runtime.yml"));
    Path t = templates.getParent();
    assertEquals(0, Cli.run("render", spec.toString(), "-o", out.toString(), "-q").exit());
    // A hand edit that writes escape sequences: the diff shows them escaped.
    Files.writeString(
        out.resolve("ansible/site.yml"), "# \u001b]0;owned\u0007\u001b[2J \u202e edited\n");
    Cli r =
        Cli.run(
            "render",
            spec.toString(),
            "-o",
            out.toString(),
            "--check",
            "--templates",
            t.toString());
    assertEquals(1, r.exit(), r.toString());
    assertPrintable(r.out());
    assertPrintable(r.err());
    assertTrue(r.out().contains("-# \\x1b]0;owned\\x07\\x1b[2J \\u202e edited\n"), r.out());
    String hint = r.err().lines().filter(l -> l.contains("; run: ")).findFirst().orElseThrow();
    assertTrue(hint.startsWith(Printable.text(out.toString()) + " is stale against "), hint);
    assertEquals(
        List.of(
            new Call(
                "gpugen",
                work.toString(),
                List.of(
                    "render", spec.toString(), "-o", out.toString(), "--templates", t.toString()))),
        paste(shell, List.of(hint.substring(hint.indexOf("; run: ") + 7))));
  }

  private record Run(int exit, String out, String err) {}

  private Run run(Object command, String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int exit =
        new CommandLine(command)
            .setExecutionExceptionHandler(new Failures())
            .setOut(new PrintWriter(o))
            .setErr(new PrintWriter(e))
            .execute(args);
    return new Run(exit, o.toString(), e.toString());
  }

  private Deploy.Context context(Path log) {
    return new Deploy.Context(
        Map.of("PATH", bin + ":/usr/bin:/bin", "PASTE_LOG", log.toString()),
        config -> {
          throw new AssertionError("no EC2 for this spec");
        },
        Duration.ofMillis(10),
        Duration.ofSeconds(1),
        Duration.ofMinutes(1));
  }

  /** The command of each "gpugen up: step N/M: ..." line. */
  private static List<String> steps(String err, String command) {
    Pattern p = Pattern.compile("^" + command + ": step \\d+/\\d+: (.*)$");
    List<String> out = new ArrayList<>();
    for (String line : err.split("\n")) {
      Matcher m = p.matcher(line);
      if (m.matches()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"sh", "bash"})
  void upAndDownStepsPasteAsTheCommandsTheyRan(String shell) throws Exception {
    // up on static hosts: the collections and the playbook in the render's ansible folder.
    Path spec = hostileSpec("examples/static-baremetal/cluster.yaml");
    Path out = tmp.resolve("out " + HOSTILE);
    Path ranLog = tmp.resolve("ran.log");
    Run up = run(new UpCommand(context(ranLog)), spec.toString(), "-o", out.toString());
    assertEquals(0, up.exit(), up.toString());
    assertPrintable(up.out());
    assertPrintable(up.err());
    List<String> upSteps = steps(up.err(), "gpugen up");
    assertEquals(2, upSteps.size(), up.err());
    // The pre-flight's version check first, then the steps.
    List<Call> all = calls(ranLog);
    assertEquals(List.of("--version"), all.get(0).args(), all.toString());
    List<Call> ran = all.subList(1, all.size());
    assertEquals(2, ran.size());
    assertEquals(out.resolve("ansible").toString(), ran.get(0).cwd());
    assertEquals(ran, paste(shell, upSteps));

    // down of an AWS render: terraform init and destroy with -chdir; the example keeps its
    // checkpoint bucket (storage.retain), so the destroy names what goes by address.
    Path awsSpec = hostileSpec("examples/aws-h100/cluster.yaml");
    Path awsOut = tmp.resolve("aws " + HOSTILE);
    assertEquals(0, Cli.run("render", awsSpec.toString(), "-o", awsOut.toString(), "-q").exit());
    Files.delete(ranLog);
    Run down =
        run(
            new DownCommand(context(ranLog)),
            awsSpec.toString(),
            "-o",
            awsOut.toString(),
            "--auto-approve");
    assertEquals(0, down.exit(), down.toString());
    assertPrintable(down.out());
    assertPrintable(down.err());
    List<String> downSteps = steps(down.err(), "gpugen down");
    List<Call> destroyed = calls(ranLog);
    assertEquals(
        List.of(
            "-chdir=" + awsOut.resolve("terraform"),
            "destroy",
            "-input=false",
            "-target=module.pool",
            "-target=aws_instance.control_plane",
            "-target=aws_lb.kube_api",
            "-target=aws_eks_cluster.this",
            "-target=aws_nat_gateway.this",
            "-target=aws_eip.nat",
            "-target=aws_vpc_endpoint.interface",
            "-auto-approve"),
        destroyed.get(1).args());
    // Terraform runs where the user is (-chdir names the folder): the same words, any folder.
    assertEquals(
        destroyed.stream().map(c -> new Call(c.tool(), work.toString(), c.args())).toList(),
        paste(shell, downSteps));
  }

  @ParameterizedTest
  @ValueSource(strings = {"sh", "bash"})
  void initsNextCommandPastesAsValidateAndRender(String shell) throws Exception {
    Path file =
        Files.createDirectories(tmp.resolve("init " + HOSTILE)).resolve("c " + HOSTILE + ".yaml");
    Cli r = Cli.run("init", "-o", file.toString());
    assertEquals(0, r.exit(), r.toString());
    assertPrintable(r.out());
    String next = r.out().strip();
    assertTrue(next.startsWith("wrote " + Printable.text(file.toString()) + " ("), next);
    assertEquals(
        List.of(
            new Call("gpugen", work.toString(), List.of("validate", file.toString())),
            new Call("gpugen", work.toString(), List.of("render", file.toString()))),
        paste(shell, List.of(next.substring(next.indexOf("; next: ") + 8))));
  }

  /** A name ending in a line feed cannot be written on one line: refused before anything runs. */
  @Test
  void aPathEndingInALineFeedIsAUsageError() throws Exception {
    Path spec =
        Files.writeString(
            tmp.resolve("c.yaml\n"), Files.readString(Path.of("examples/aws-h100/cluster.yaml")));
    Path out = tmp.resolve("out");
    Cli r = Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(2, r.exit(), r.toString());
    assertTrue(
        r.err()
            .startsWith("gpugen: SPEC " + Printable.text(spec.toString()) + " ends in a line feed"),
        r.err());
    assertFalse(Files.exists(out));
    Cli o = Cli.run("render", "examples/aws-h100/cluster.yaml", "-o", out + "\n");
    assertEquals(2, o.exit(), o.toString());
    assertFalse(Files.exists(Path.of(out + "\n")));
  }
}

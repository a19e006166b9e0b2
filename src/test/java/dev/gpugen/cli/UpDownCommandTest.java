package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.inventory.Ec2InstanceSource;
import dev.gpugen.inventory.Ec2StandIn;
import dev.gpugen.inventory.Ec2StandIn.Instance;
import dev.gpugen.inventory.Fleet;
import dev.gpugen.inventory.StandIns;
import dev.gpugen.testing.RealToolsTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * gpugen up and down against stand-ins: EC2 is the local EC2 stand-in (the real Query protocol on
 * 127.0.0.1) and terraform, ansible-galaxy, ansible, ansible-playbook, aws, gcloud, python3 and the
 * SSM and GKE plugins are one stand-in script on PATH that appends its name, folder and arguments
 * to a log, answers the checks the way the real tools do (aws's JSON shapes are those of the AWS
 * CLI's own examples, aws/aws-cli awscli/examples/sts/get-caller-identity.rst and
 * awscli/examples/service-quotas/get-service-quota.rst; ansible's version banner and ad-hoc "HOST |
 * SUCCESS =>" lines are ansible-core 2.14's) and fails when told to. The tests assert the exact
 * sequence of commands (the checks before the first step), the waits and their progress, the stop
 * at a failing step, the resume, and every problem listed at once before anything runs.
 */
@RealToolsTest
class UpDownCommandTest {
  private static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata:
        name: upfleet
      cloud:
        provider: aws
        region: us-east-1
      network:
        sshIngressCidrs: []
      pools:
        - name: h100
          instanceType: p5.48xlarge
          count: 2
      software:
        driver: "580.95.05"
        cuda: "12.8"
      kernel:
        sysctl:
          vm.max_map_count: "262144"
          kernel.numa_balancing: "0"
      """;

  /**
   * One script for every tool: logs "tool|cwd|args" (and "|KUBECONFIG=..." when set), fails with
   * FAKE_FAIL=<tool>:<word>:<code> (a space-separated list), answers aws's checks with JSON (the
   * quota's value from FAKE_QUOTA), ansible-playbook --version with the Python it runs on (and the core
   * version FAKE_ANSIBLE_CORE), and
   * wait_for_connection with a SUCCESS line for each host of STAND_IN_HOSTS.
   */
  private static final String STAND_IN =
      """
      #!/bin/sh
      tool=$(basename "$0")
      if [ -n "$KUBECONFIG" ]; then kc="|KUBECONFIG=$KUBECONFIG"; else kc=""; fi
      printf '%s|%s|%s%s\\n' "$tool" "$PWD" "$*" "$kc" >> "$STAND_IN_LOG"
      for fail in $FAKE_FAIL; do
        case "$fail" in
          "$tool":*)
            word=$(echo "$fail" | cut -d: -f2); code=$(echo "$fail" | cut -d: -f3)
            case " $* " in
              *" $word "*) echo "$tool: failing as told" >&2; exit "$code";;
            esac;;
        esac
      done
      case "$tool $1 $2" in
        "aws sts get-caller-identity")
          printf '{\\n    "UserId": "AIDASAMPLEUSERID",\\n    "Account": "123456789012",\\n'
          printf '    "Arn": "arn:aws:iam::123456789012:user/DevAdmin"\\n}\\n'
          exit 0;;
        "aws service-quotas get-service-quota")
          code=$(echo " $* " | sed 's/.* --quota-code \\([^ ]*\\) .*/\\1/')
          printf '{\\n    "Quota": {\\n        "ServiceCode": "ec2",\\n'
          printf '        "QuotaCode": "%s",\\n        "Value": %s,\\n' "$code" "${FAKE_QUOTA:-100000.0}"
          printf '        "Unit": "None",\\n        "Adjustable": true\\n    }\\n}\\n'
          exit 0;;
        "ansible --version "*|"ansible-playbook --version "*)
          echo "$tool [core ${FAKE_ANSIBLE_CORE:-2.14.18}]"
          echo "  python version = 3.11.2 (main, Mar 13 2023, 12:18:29) [GCC 12.2.0] ($(dirname "$0")/python3)"
          exit 0;;
      esac
      case " $* " in
        *" ansible.builtin.wait_for_connection "*)
          for h in $STAND_IN_HOSTS; do printf '%s | SUCCESS => {\\n    "elapsed": 1\\n}\\n' "$h"; done
          exit 0;;
      esac
      echo "$tool stand-in ran"
      exit 0
      """;

  private static final List<String> TOOLS =
      List.of(
          "terraform",
          "ansible-galaxy",
          "ansible",
          "ansible-playbook",
          "aws",
          "python3",
          "session-manager-plugin",
          "gcloud",
          "gke-gcloud-auth-plugin");

  @TempDir Path tmp;
  private Ec2StandIn ec2;
  private Path bin;
  private Path log;
  private Path spec;
  private Path out;

  @BeforeEach
  void setUp() throws Exception {
    ec2 = Ec2StandIn.start();
    bin = Files.createDirectories(tmp.resolve("bin"));
    log = tmp.resolve("calls.log");
    Path script = bin.resolve("stand-in");
    Files.writeString(script, STAND_IN, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String tool : TOOLS) {
      Files.createSymbolicLink(bin.resolve(tool), script);
    }
    spec = Files.writeString(tmp.resolve("cluster.yaml"), SPEC);
    out = tmp.resolve("render");
  }

  @AfterEach
  void tearDown() {
    ec2.close();
  }

  record Run(int exit, String out, String err) {}

  private Map<String, String> env(String path, String... more) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", path + ":/usr/bin:/bin");
    env.put("STAND_IN_LOG", log.toString());
    env.put("GPUGEN_EC2_ENDPOINT", ec2.endpoint().toString());
    env.put("GPUGEN_API_CALL_TIMEOUT_SECONDS", "5");
    env.put("GPUGEN_MAX_ATTEMPTS", "1");
    env.put("AWS_ACCESS_KEY_ID", Ec2StandIn.ACCESS_KEY_ID);
    env.put("AWS_SECRET_ACCESS_KEY", "secret");
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    env.put("STAND_IN_HOSTS", "upfleet-h100-0 upfleet-h100-1");
    for (int i = 0; i + 1 < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

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

  private Deploy.Context context(Map<String, String> env, Duration waitLimit) {
    return context(env, waitLimit, Duration.ofMinutes(10));
  }

  private Deploy.Context context(Map<String, String> env, Duration waitLimit, Duration heartbeat) {
    return new Deploy.Context(
        env,
        config -> new Ec2InstanceSource(config, StandIns.CREDENTIALS),
        Duration.ofMillis(200),
        waitLimit,
        heartbeat);
  }

  private Run up(Map<String, String> env, Duration waitLimit) {
    return run(
        new UpCommand(context(env, waitLimit)),
        spec.toString(),
        "-o",
        out.toString(),
        "--auto-approve");
  }

  private static Instance node(int n) {
    return Instance.of(
        Fleet.id(n),
        "p5.48xlarge",
        "us-east-1a",
        Fleet.tags("upfleet", "", "h100", "upfleet-h100-" + n));
  }

  private List<String> calls() throws Exception {
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  /** The checks before the first step: Ansible's Python and boto3, the identity, the quota. */
  private List<String> checks() {
    String cwd = Path.of("").toAbsolutePath().toString();
    return List.of(
        "ansible-playbook|" + cwd + "|--version",
        "python3|" + cwd + "|-c import boto3, botocore",
        "aws|" + cwd + "|sts get-caller-identity --region us-east-1 --output json",
        "aws|"
            + cwd
            + "|service-quotas get-service-quota --service-code ec2 --quota-code L-417A185B"
            + " --region us-east-1 --output json");
  }

  /** The steps: the collections first, then Terraform, then Ansible. */
  private List<String> steps() {
    String tf = out.resolve("terraform").toString();
    String ansible = out.resolve("ansible").toAbsolutePath().toString();
    String cwd = Path.of("").toAbsolutePath().toString();
    return List.of(
        "ansible-galaxy|" + ansible + "|collection install -r requirements.yml",
        "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
        "terraform|" + cwd + "|-chdir=" + tf + " apply -input=false -auto-approve",
        "ansible|"
            + ansible
            + "|gpu_nodes -i gpugen-inventory -m ansible.builtin.wait_for_connection -a timeout=600",
        "ansible-playbook|" + ansible + "|-i gpugen-inventory site.yml");
  }

  private List<String> fullSequence() {
    List<String> all = new java.util.ArrayList<>(checks());
    all.addAll(steps());
    return all;
  }

  @Test
  void upChecksFirstThenRunsEveryStepInOrderAndWaitsForTheNodesWithProgress() throws Exception {
    ec2.add(node(0));
    ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    try {
      // The second node comes up while gpugen up waits: once EC2 has answered the first poll.
      later.scheduleWithFixedDelay(
          () -> {
            if (ec2.requests() > 0) {
              // The first answer went out well before this (the stand-in answers in ms).
              try {
                Thread.sleep(150);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              ec2.add(node(1));
              throw new IllegalStateException("added: stop repeating");
            }
          },
          50,
          50,
          TimeUnit.MILLISECONDS);
      Run r = up(env(bin.toString()), Duration.ofSeconds(60));
      assertEquals(0, r.exit(), r.toString());
      assertEquals(fullSequence(), calls());
      assertTrue(r.out().startsWith("rendered " + out + ": "), r.out());
      assertTrue(Files.isRegularFile(out.resolve("terraform/ssm.tf")), "rendered before running");
      assertTrue(
          r.err().contains("gpugen up: AWS identity: arn:aws:iam::123456789012:user/DevAdmin\n"),
          "says which account pays: " + r.err());
      int waitStep = r.err().indexOf("step 4/6: wait until every node of the spec is running");
      int one = r.err().indexOf("1/2 nodes running (h100 1/2), ");
      int two = r.err().indexOf("2/2 nodes running (h100 2/2), ");
      int connect = r.err().indexOf("step 5/6: (cd ");
      int none = r.err().indexOf("0/2 nodes answer (h100 0/2), ");
      int all = r.err().indexOf("2/2 nodes answer (h100 2/2), ");
      int playbook = r.err().indexOf("step 6/6: (cd ");
      assertTrue(
          waitStep >= 0
              && waitStep < one
              && one < two
              && two < connect
              && connect < none
              && none < all
              && all < playbook,
          r.err());
      assertTrue(
          r.err().matches("(?s).*1/2 nodes running \\(h100 1/2\\), \\d+ (min|s) left.*"), r.err());
      // Each command is printed before it runs (its output follows).
      assertTrue(
          r.err().contains("step 3/6: terraform -chdir=" + out.resolve("terraform") + " apply"),
          r.err());
      assertTrue(r.out().indexOf("terraform stand-in ran") > 0, r.out());
      assertTrue(r.err().endsWith("gpugen up: done\n"), r.err());
    } finally {
      later.shutdownNow();
    }
  }

  /** With a heartbeat shorter than a poll, every poll prints its line, changed or not. */
  @Test
  void theEc2WaitSpeaksAtEveryHeartbeatWithPerPoolCountsAndTheTimeLeft() throws Exception {
    Files.writeString(
        spec,
        SPEC.replace(
            "    count: 2\n",
            "    count: 2\n  - name: l4\n    instanceType: g6.48xlarge\n    count: 1\n"));
    ec2.add(node(0));
    Run r =
        run(
            new UpCommand(context(env(bin.toString()), Duration.ofSeconds(1), Duration.ZERO)),
            spec.toString(),
            "-o",
            out.toString(),
            "--auto-approve");
    assertEquals(ExitCodes.STEP_FAILED, r.exit(), r.toString());
    List<String> beats =
        r.err()
            .lines()
            .filter(l -> l.startsWith("1/3 nodes running (h100 1/2, l4 0/1), "))
            .toList();
    assertFalse(beats.isEmpty(), r.err());
    assertTrue(beats.stream().allMatch(l -> l.matches(".*, (\\d+ s left|time is up)")), r.err());
    assertTrue(
        r.err()
            .contains("1/3 nodes running (h100 1/2, l4 0/1) after 1 s: see the instances' state"),
        r.err());
  }

  @Test
  void anEksClusterGetsItsKubeconfigAfterApplyAndBeforeAnsible() throws Exception {
    Files.writeString(
        spec,
        SPEC
            + "kubernetes:\n"
            + "  distribution: eks\n"
            + "  version: \"1.33\"\n"
            + "  endpointAccess: private\n");
    ec2.add(node(0)).add(node(1));
    Run r = up(env(bin.toString()), Duration.ofSeconds(60));
    assertEquals(0, r.exit(), r.toString());
    List<String> expected = new java.util.ArrayList<>(fullSequence());
    String cwd = Path.of("").toAbsolutePath().toString();
    expected.add(
        checks().size() + 3,
        "aws|"
            + cwd
            + "|eks update-kubeconfig --region us-east-1 --name upfleet --kubeconfig "
            + out.resolve("ansible/.state/kubeconfig"));
    assertEquals(expected, calls());
    // Where plays 03-05 must run is said before anything bills.
    int note = r.err().indexOf("gpugen up: the EKS API endpoint is private: plays 03-05 reach it");
    assertTrue(note >= 0 && note < r.err().indexOf("step 1/"), r.err());
    // The kubeconfig's folder is one the render keeps out of Git.
    assertTrue(
        Files.readString(out.resolve("ansible/.gitignore"))
            .lines()
            .anyMatch(l -> l.equals("/.state/")),
        Files.readString(out.resolve("ansible/.gitignore")));
  }

  @Test
  void withoutEksThereIsNoKubeconfigStep() throws Exception {
    ec2.add(node(0)).add(node(1));
    Run r = up(env(bin.toString()), Duration.ofSeconds(60));
    assertEquals(0, r.exit(), r.toString());
    assertFalse(r.err().contains("endpoint is private"), r.err());
    assertTrue(
        calls().stream().noneMatch(c -> c.startsWith("aws|") && c.contains(" eks ")),
        calls().toString());
  }

  /**
   * GKE: the gcloud checks first, the cluster's root module, then the in-cluster one (the GPU
   * Operator, NCCL settings) once the cluster exists, then the kubeconfig plays 03-05 read, named
   * by KUBECONFIG.
   */
  @Test
  void aGkeClusterGetsItsKubeconfigFromGcloudAndThePlaybookReadsIt() throws Exception {
    Files.copy(Path.of("examples/gcp-gke/cluster.yaml"), spec, StandardCopyOption.REPLACE_EXISTING);
    Run r = up(env(bin.toString()), Duration.ofSeconds(10));
    assertEquals(0, r.exit(), r.toString());
    String cwd = Path.of("").toAbsolutePath().toString();
    String tf = out.resolve("terraform").toString();
    String ansible = out.resolve("ansible").toAbsolutePath().toString();
    String kubeconfig = out.resolve("ansible/.state/kubeconfig").toString();
    assertEquals(
        List.of(
            "ansible-playbook|" + cwd + "|--version",
            "gcloud|" + cwd + "|auth print-access-token --quiet",
            "gcloud|" + cwd + "|auth application-default print-access-token --quiet",
            "ansible-galaxy|" + ansible + "|collection install -r requirements.yml",
            "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
            "terraform|" + cwd + "|-chdir=" + tf + " apply -input=false -auto-approve",
            "terraform|" + cwd + "|-chdir=" + tf + "/in-cluster init -input=false",
            "terraform|" + cwd + "|-chdir=" + tf + "/in-cluster apply -input=false -auto-approve",
            "gcloud|"
                + cwd
                + "|container clusters get-credentials gke-finetune --zone us-central1-a"
                + " --project ml-platform-prod|KUBECONFIG="
                + kubeconfig,
            "ansible-playbook|"
                + ansible
                + "|site.yml|KUBECONFIG="
                + out.resolve("ansible/.state/kubeconfig").toAbsolutePath()),
        calls());
  }

  /** The progress README shows is what a run prints: each of its lines is one a run printed. */
  @Test
  void theReadmesProgressOutputIsWhatUpPrints() throws Exception {
    ec2.add(node(0)).add(node(1));
    Run r = up(env(bin.toString()), Duration.ofSeconds(10));
    assertEquals(0, r.exit(), r.toString());
    String readme = Files.readString(Path.of("README.md"));
    int from = readme.indexOf("$ gpugen up cluster.yaml\n");
    int to = readme.indexOf("gpugen up: done\n", from);
    assertTrue(from > 0 && to > from, "README shows a gpugen up run");
    List<String> shown =
        readme.substring(from, to + "gpugen up: done".length()).lines().skip(1).toList();
    String printed = r.out() + r.err();
    String tf = out.resolve("terraform").toString();
    String ansible = out.resolve("ansible").toString();
    for (String line : shown) {
      if (line.equals("...")) {
        continue;
      }
      String asRun =
          line.replace("roles-generated/llm-train/terraform", tf)
              .replace("roles-generated/llm-train/ansible", ansible)
              .replace("roles-generated/llm-train", out.toString())
              .replaceAll(
                  "^\\d+/16 nodes (running|answer) \\(h100 \\d+/16\\), .*$",
                  "2/2 nodes $1 (h100 2/2), ")
              .replaceAll("^gpugen up: AWS identity: .*$", "gpugen up: AWS identity: ")
              .replaceAll("^rendered (\\S+): \\d+ written, \\d+ unchanged", "rendered $1: ");
      if (asRun.endsWith(" apply -input=false")) {
        asRun += " -auto-approve";
      }
      if (asRun.startsWith("rendered ")) {
        asRun = asRun.substring(0, asRun.indexOf(": ") + 2);
      }
      assertTrue(
          printed.contains(asRun),
          "README line \"" + line + "\" as run: " + asRun + "\n" + printed);
    }
  }

  @Test
  void aFailingStepStopsTheRunWithTheStepFailedCodeNamingTheToolsAndARerunResumes()
      throws Exception {
    ec2.add(node(0)).add(node(1));
    Run failed = up(env(bin.toString(), "FAKE_FAIL", "terraform:apply:7"), Duration.ofSeconds(10));
    assertEquals(ExitCodes.STEP_FAILED, failed.exit(), failed.toString());
    assertEquals(fullSequence().subList(0, checks().size() + 3), calls(), "nothing after apply");
    assertTrue(failed.err().contains("terraform: failing as told"), failed.err());
    assertTrue(
        failed
            .err()
            .contains(
                "step 3/6 failed: terraform exited 7; resources it created before the failure may"
                    + " exist and are billed: run gpugen up again once the cause is fixed (the"
                    + " finished steps change nothing the second time), or gpugen down to delete"
                    + " them. gpugen exits 5: a step failed"),
        failed.err());
    assertFalse(failed.err().contains("nodes running"), failed.err());

    Files.delete(log);
    Run again = up(env(bin.toString()), Duration.ofSeconds(10));
    assertEquals(0, again.exit(), again.toString());
    assertEquals(fullSequence(), calls());
    assertTrue(again.err().contains("2/2 nodes running (h100 2/2)"), again.err());

    // ansible-playbook's 4 ("unreachable") is not gpugen's 4 ("a bug in gpugen").
    Files.delete(log);
    Run playbook =
        up(env(bin.toString(), "FAKE_FAIL", "ansible-playbook:site.yml:4"), Duration.ofSeconds(10));
    assertEquals(ExitCodes.STEP_FAILED, playbook.exit(), playbook.toString());
    assertTrue(playbook.err().contains("ansible-playbook exited 4;"), playbook.err());
    assertEquals(fullSequence(), calls());
  }

  /**
   * A driver change is rolled out by upgrade-driver.yml: the render that changed it (here a plain
   * render, so the up itself sees no change) leaves it pending in the manifest, a failed rollout
   * keeps it pending, and only a finished one brings site.yml back.
   */
  @Test
  void aDriverChangeRunsUpgradeDriverUntilAnUpHasFinishedIt() throws Exception {
    ec2.add(node(0)).add(node(1));
    assertEquals(0, up(env(bin.toString()), Duration.ofSeconds(10)).exit());
    Files.writeString(spec, SPEC.replace("580.95.05", "570.195.03"));
    Cli render = Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(0, render.exit(), render.toString());
    assertTrue(
        render.out().contains("ansible-playbook -i gpugen-inventory upgrade-driver.yml"),
        render.out());
    String upgrade = "ansible-playbook|" + out.resolve("ansible") + "|-i gpugen-inventory ";

    Files.delete(log);
    Run failed =
        up(
            env(bin.toString(), "FAKE_FAIL", "ansible-playbook:upgrade-driver.yml:2"),
            Duration.ofSeconds(10));
    assertEquals(ExitCodes.STEP_FAILED, failed.exit(), failed.toString());
    assertTrue(
        failed
            .err()
            .contains(
                "step 6/6: (cd "
                    + out.resolve("ansible")
                    + " && ansible-playbook -i gpugen-inventory upgrade-driver.yml)   (the driver"
                    + " changed and no gpugen up has rolled it out yet: upgrade-driver.yml"),
        failed.err());
    assertFalse(failed.out().contains("What the change does"), "no diff in this run");

    Files.delete(log);
    Run again = up(env(bin.toString()), Duration.ofSeconds(10));
    assertEquals(0, again.exit(), again.toString());
    assertTrue(calls().contains(upgrade + "upgrade-driver.yml"), calls().toString());
    assertFalse(calls().contains(upgrade + "site.yml"), calls().toString());

    Files.delete(log);
    Run after = up(env(bin.toString()), Duration.ofSeconds(10));
    assertEquals(0, after.exit(), after.toString());
    assertTrue(calls().contains(upgrade + "site.yml"), calls().toString());
    assertFalse(calls().contains(upgrade + "upgrade-driver.yml"), calls().toString());
  }

  /** A Galaxy failure stops the run before Terraform has created anything. */
  @Test
  void theCollectionsAreInstalledBeforeTerraformRuns() throws Exception {
    Run r =
        up(env(bin.toString(), "FAKE_FAIL", "ansible-galaxy:collection:1"), Duration.ofSeconds(10));
    assertEquals(ExitCodes.STEP_FAILED, r.exit(), r.toString());
    assertTrue(r.err().contains("step 1/6 failed: ansible-galaxy exited 1;"), r.err());
    assertTrue(calls().stream().noneMatch(c -> c.startsWith("terraform|")), calls().toString());
  }

  /** The wait comes after the apply: a step failed (5), not a check before anything ran (3). */
  @Test
  void nodesThatNeverComeUpEndTheWaitAsAFailedStepThatLeftResources() throws Exception {
    ec2.add(node(0));
    Run r = up(env(bin.toString()), Duration.ofSeconds(1));
    assertEquals(ExitCodes.STEP_FAILED, r.exit(), r.toString());
    assertTrue(
        r.err().contains("gpugen up: step 4/6 failed: 1/2 nodes running (h100 1/2) after 1 s"),
        r.err());
    assertTrue(
        r.err()
            .contains(
                "; the resources Terraform created exist: run gpugen up again, or gpugen down."
                    + " gpugen exits 5: a step failed"),
        r.err());
    assertEquals(
        fullSequence().subList(0, checks().size() + 3), calls(), "no Ansible step after the wait");
  }

  /**
   * Every problem of the run is listed at once, before anything runs or is written: a missing tool,
   * SSM's plugin, boto3 in Ansible's Python, and credentials that do not answer.
   */
  @Test
  void everyMissingPrerequisiteIsListedAtOnceBeforeAnythingRunsOrIsWritten() throws Exception {
    Files.delete(bin.resolve("ansible-playbook"));
    Files.delete(bin.resolve("session-manager-plugin"));
    Map<String, String> env =
        env(bin.toString(), "FAKE_FAIL", "python3:import:1 aws:get-caller-identity:255");
    // Only the stand-ins and the few commands they use: the machine's own Ansible stays out.
    Path utils = Files.createDirectories(tmp.resolve("utils"));
    for (String u : List.of("basename", "dirname", "cut", "sed")) {
      Files.createSymbolicLink(utils.resolve(u), Path.of("/usr/bin", u));
    }
    env.put("PATH", bin + ":" + utils);
    Run r = up(env, Duration.ofSeconds(10));
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().contains("gpugen up: nothing was run; fix these first:\n"), r.err());
    assertTrue(
        r.err().contains("  - ansible-playbook is not on PATH (https://docs.ansible.com/"),
        r.err());
    assertTrue(
        r.err().contains("  - session-manager-plugin is not on PATH (https://docs.aws.amazon.com/"),
        r.err());
    assertTrue(
        r.err().contains("  - boto3 is missing from " + bin.resolve("python3") + ", the Python"),
        r.err());
    assertTrue(
        r.err()
            .contains(
                "  - AWS credentials do not answer: aws sts get-caller-identity exited 255 (aws:"
                    + " failing as told)"),
        r.err());
    assertTrue(
        calls().stream()
            .noneMatch(c -> c.startsWith("terraform|") || c.startsWith("ansible-galaxy|")),
        calls().toString());
    assertFalse(Files.exists(out), "nothing rendered");
  }

  /** An ansible-core older than the roles need stops the run before Terraform spends anything. */
  @Test
  void anOldAnsibleIsRefusedBeforeTheApply() throws Exception {
    Run r = up(env(bin.toString(), "FAKE_ANSIBLE_CORE", "2.12.10"), Duration.ofSeconds(10));
    assertEquals(3, r.exit(), r.toString());
    assertTrue(
        r.err().contains("  - ansible-core 2.12 is older than 2.14, which the rendered roles need"),
        r.err());
    assertEquals(checks(), calls(), "only the checks ran");
  }

  /** A quota below what the spec needs stops the run before Terraform spends anything. */
  @Test
  void aShortQuotaIsRefusedBeforeTheApplyWithTheRequestToMake() throws Exception {
    Run r = up(env(bin.toString(), "FAKE_QUOTA", "0.0"), Duration.ofSeconds(10));
    assertEquals(3, r.exit(), r.toString());
    assertTrue(
        r.err()
            .contains(
                "  - quota L-417A185B (Running On-Demand P instances) is 0 vCPUs in us-east-1, the"
                    + " spec needs 384 (h100), not counting what else runs in the account: request"
                    + " more with aws service-quotas request-service-quota-increase --service-code"
                    + " ec2 --quota-code L-417A185B --desired-value 384 --region us-east-1, or lower"
                    + " the count"),
        r.err());
    assertEquals(checks(), calls(), "only the checks ran");

    // Enough quota: the run goes on.
    Files.delete(log);
    ec2.add(node(0)).add(node(1));
    Run enough = up(env(bin.toString(), "FAKE_QUOTA", "384.0"), Duration.ofSeconds(10));
    assertEquals(0, enough.exit(), enough.toString());
  }

  /** A quota gpugen may not read (no permission) is said, and the run goes on. */
  @Test
  void aQuotaThatCannotBeReadIsANoteNotAStop() throws Exception {
    ec2.add(node(0)).add(node(1));
    Run r =
        up(env(bin.toString(), "FAKE_FAIL", "aws:get-service-quota:254"), Duration.ofSeconds(10));
    assertEquals(0, r.exit(), r.toString());
    assertTrue(
        r.err()
            .contains(
                "gpugen up: could not read quota L-417A185B (Running On-Demand P instances): aws"
                    + " exited 254 (aws: failing as told); the spec needs 384 vCPUs of it in"
                    + " us-east-1: check it in the Service Quotas console"),
        r.err());
  }

  /**
   * Two specs with one metadata.name: the second may not render into the first's folder, nor run up
   * or down there (its Terraform state is the first cluster's); --force hands the folder over.
   */
  @Test
  void downOfASecondSpecWithTheSameNameIsRefusedNamingBothFiles() throws Exception {
    ec2.add(node(0)).add(node(1));
    Run first = up(env(bin.toString()), Duration.ofSeconds(10));
    assertEquals(0, first.exit(), first.toString());
    Path other = Files.writeString(tmp.resolve("other.yaml"), SPEC.replace("count: 2", "count: 4"));
    Files.delete(log);

    Run down =
        run(
            new DownCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            other.toString(),
            "-o",
            out.toString(),
            "--auto-approve");
    assertEquals(2, down.exit(), down.toString());
    assertTrue(
        down.err()
            .contains(
                "gpugen: "
                    + out
                    + " holds the render of "
                    + spec
                    + " (its .gpugen-manifest.json says so), not of "
                    + other
                    + ": two specs in one folder share its files and its Terraform state."),
        down.err());
    assertTrue(down.err().contains("pass --force"), down.err());
    // Another -o would drive the first cluster's tagged instances from a fresh state: not offered.
    assertTrue(
        down.err().contains("Give " + other + " its own metadata.name; if it replaces "),
        down.err());
    assertFalse(down.err().contains("-o DIR"), down.err());
    assertEquals(List.of(), calls(), "terraform never ran");

    dev.gpugen.Cli render = dev.gpugen.Cli.run("render", other.toString(), "-o", out.toString());
    assertEquals(2, render.exit(), render.toString());
    assertTrue(render.err().contains(" holds the render of " + spec), render.toString());
    Run up =
        run(
            new UpCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            other.toString(),
            "-o",
            out.toString());
    assertEquals(2, up.exit(), up.toString());
    assertEquals(List.of(), calls(), "nothing ran");

    Run forced =
        run(
            new DownCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            other.toString(),
            "-o",
            out.toString(),
            "--auto-approve",
            "--force");
    assertEquals(0, forced.exit(), forced.toString());
  }

  @Test
  void downDestroysWithTheRenderedStateAndPassesAFailureOn() throws Exception {
    Files.createDirectories(out.resolve("terraform"));
    String tf = out.resolve("terraform").toString();
    String cwd = Path.of("").toAbsolutePath().toString();
    Run down =
        run(
            new DownCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            spec.toString(),
            "-o",
            out.toString());
    assertEquals(0, down.exit(), down.toString());
    assertEquals(
        List.of(
            "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
            "terraform|" + cwd + "|-chdir=" + tf + " destroy -input=false"),
        calls(),
        "without --auto-approve Terraform asks");

    Files.delete(log);
    Run failed =
        run(
            new DownCommand(
                context(
                    env(bin.toString(), "FAKE_FAIL", "terraform:destroy:5"),
                    Duration.ofSeconds(1))),
            spec.toString(),
            "-o",
            out.toString(),
            "--auto-approve");
    assertEquals(5, failed.exit(), failed.toString());
    assertEquals(
        List.of(
            "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
            "terraform|" + cwd + "|-chdir=" + tf + " destroy -input=false -auto-approve"),
        calls());
  }

  /**
   * storage.retain (the default) keeps the bucket: a whole-state destroy would meet its
   * prevent_destroy and Terraform would refuse the whole plan, nodes included, so down destroys the
   * nodes and what bills by the hour by address; with retain false, everything.
   */
  @Test
  void downWithRetainedDataDestroysTheNodesByAddressAndEverythingWithoutIt() throws Exception {
    Files.createDirectories(out.resolve("terraform"));
    String tf = out.resolve("terraform").toString();
    String cwd = Path.of("").toAbsolutePath().toString();
    String withBucket =
        SPEC.replace("software:", "storage:\n  checkpointBucket: upfleet-ckpt\nsoftware:");
    Files.writeString(spec, withBucket);
    Run down =
        run(
            new DownCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            spec.toString(),
            "-o",
            out.toString(),
            "--auto-approve");
    assertEquals(0, down.exit(), down.toString());
    assertEquals(
        List.of(
            "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
            "terraform|"
                + cwd
                + "|-chdir="
                + tf
                + " destroy -input=false -target=module.pool -target=aws_instance.control_plane"
                + " -target=aws_lb.kube_api -target=aws_eks_cluster.this"
                + " -target=aws_nat_gateway.this -target=aws_eip.nat"
                + " -target=aws_vpc_endpoint.interface -auto-approve"),
        calls());
    assertTrue(down.err().contains("storage.retain: false"), down.toString());
    // What stays says that it bills, and the way to delete it re-renders and applies first (the
    // render's prevent_destroy and the bucket's force_destroy change only through an apply).
    assertTrue(down.err().contains("What is kept still bills"), down.toString());
    assertTrue(
        down.err().contains("storage.retain: false, gpugen render, terraform apply, gpugen down"),
        down.toString());

    Files.delete(log);
    Files.writeString(
        spec,
        withBucket.replace(
            "checkpointBucket: upfleet-ckpt", "checkpointBucket: upfleet-ckpt\n  retain: false"));
    Run all =
        run(
            new DownCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            spec.toString(),
            "-o",
            out.toString(),
            "--auto-approve");
    assertEquals(0, all.exit(), all.toString());
    assertEquals(
        List.of(
            "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
            "terraform|" + cwd + "|-chdir=" + tf + " destroy -input=false -auto-approve"),
        calls());
  }

  /** GKE: what runs on the cluster goes first, while the cluster still answers. */
  @Test
  void downOnGkeDestroysTheInClusterRootBeforeTheCluster() throws Exception {
    Files.createDirectories(out.resolve("terraform/in-cluster"));
    String tf = out.resolve("terraform").toString();
    String cwd = Path.of("").toAbsolutePath().toString();
    Run down =
        run(
            new DownCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            spec.toString(),
            "-o",
            out.toString(),
            "--auto-approve");
    assertEquals(0, down.exit(), down.toString());
    assertEquals(
        List.of(
            "terraform|" + cwd + "|-chdir=" + tf + "/in-cluster init -input=false",
            "terraform|" + cwd + "|-chdir=" + tf + "/in-cluster destroy -input=false -auto-approve",
            "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
            "terraform|" + cwd + "|-chdir=" + tf + " destroy -input=false -auto-approve"),
        calls());
  }

  @Test
  void downWithoutARenderSaysWhereItLooked() {
    Run r =
        run(
            new DownCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            spec.toString(),
            "-o",
            tmp.resolve("nowhere").toString());
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().contains("no render at " + tmp.resolve("nowhere/terraform")), r.err());
  }
}

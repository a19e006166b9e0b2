package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The messages a new user meets first: each says what is wrong and leads to a valid input. */
class FirstHourMessagesTest {
  @TempDir Path tmp;

  private static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata:
        name: demo
      cloud:
      %s
      pools:
        - name: gpu
          instanceType: %s
          count: 1
      software:
        driver: "580.95.05"
        cuda: "12.8"
      kernel:
        sysctl: {kernel.numa_balancing: 0, vm.max_map_count: 262144}
      """;

  private Cli validate(String cloud, String instanceType, String... extra) throws Exception {
    Path spec = tmp.resolve("spec-" + System.nanoTime() + ".yaml");
    Files.writeString(spec, SPEC.formatted(cloud.stripTrailing(), instanceType));
    String[] args = new String[extra.length + 2];
    args[0] = "validate";
    System.arraycopy(extra, 0, args, 1, extra.length);
    args[args.length - 1] = spec.toString();
    return Cli.run(args);
  }

  private static final String GCP =
      "  provider: gcp\n  project: my-project\n  gke: {cluster: c, authorizedNetworks: [203.0.113.0/24]}\n  region: %s\n%s";

  @Test
  void aRegionOfTheOtherProviderIsReportedAtTheRegionWithTheNearestOne() throws Exception {
    Cli r = validate("  provider: aws\n  region: us-east1\n", "p5.48xlarge");
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        r.out()
            .contains(
                ":7:11: error[spec-cloud-location]: cloud.region us-east1 is not an AWS region (it"
                    + " is a GCP one); did you mean us-east-1?\n"),
        r.out());
    assertTrue(r.out().contains("  hint: write region: us-east-1\n"), r.out());
    assertFalse(r.out().contains("availabilityZone"), "no second finding at the zone: " + r.out());
  }

  /** Without cloud.region the quota hint's command has no --region, not "--region the region". */
  @Test
  void theQuotaHintWithoutARegionIsACommandThatRuns() throws Exception {
    Cli r = validate("  provider: aws\n", "p5.48xlarge");
    assertTrue(r.out().contains("info[aws-vcpu-quota]: the nodes need 192 vCPUs of"), r.out());
    assertFalse(r.out().contains("the region"), r.out());
    assertTrue(
        r.out().contains("--service-code ec2 --quota-code L-417A185B (gpugen up checks"), r.out());
  }

  @Test
  void anInventedRegionListsTheProvidersRegions() throws Exception {
    Cli r = validate("  provider: aws\n  region: us-middle-9\n", "p5.48xlarge");
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.out().contains("cloud.region us-middle-9 is not an AWS region\n"), r.out());
    assertTrue(r.out().contains("  hint: AWS regions: us-east-1, us-east-2, "), r.out());
  }

  @Test
  void gcpZonesAreCheckedAgainstTheRegionsZones() throws Exception {
    Cli ok =
        validate(
            GCP.formatted("us-central1", "  availabilityZone: us-central1-f\n"), "a3-highgpu-8g");
    assertEquals(0, ok.exit(), ok.toString());
    Cli letter =
        validate(
            GCP.formatted("us-central1", "  availabilityZone: us-central1-d\n"), "a3-highgpu-8g");
    assertEquals(1, letter.exit(), letter.toString());
    assertTrue(
        letter.out().contains("cloud.availabilityZone us-central1-d is not a zone of us-central1"),
        letter.out());
    assertTrue(
        letter
            .out()
            .contains(
                "hint: zones of us-central1: us-central1-a, us-central1-b,"
                    + " us-central1-c, us-central1-f"),
        letter.out());
    Cli awsStyle =
        validate(
            GCP.formatted("europe-west4", "  availabilityZone: europe-west4a\n"), "a3-highgpu-8g");
    assertTrue(
        awsStyle.out().contains("europe-west4a is not a GCP zone; did you mean europe-west4-a?"),
        awsStyle.out());
    Cli gcpStyleOnAws =
        validate(
            "  provider: aws\n  region: us-east-1\n  availabilityZone: us-east-1-a\n",
            "p5.48xlarge");
    assertTrue(
        gcpStyleOnAws.out().contains("us-east-1-a is not an AWS zone; did you mean us-east-1a?"),
        gcpStyleOnAws.out());
  }

  @Test
  void gcpsZoneKeyPointsAtAvailabilityZone() throws Exception {
    Cli r = validate(GCP.formatted("us-central1", "  zone: us-central1-a\n"), "a3-highgpu-8g");
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        r.out().contains("cloud.zone is not a known key; did you mean availabilityZone?"), r.out());
    Cli machine =
        validate(
            "  provider: aws\n  region: us-east-1\n", "p5.48xlarge\n    machineType: p5.48xlarge");
    assertTrue(machine.out().contains("did you mean instanceType?"), machine.out());
  }

  @Test
  void gcpInitSaysOneNodeWhereItWritesOneAndTheFileFollowsTheUmask() throws Exception {
    Path spec = tmp.resolve("gcp.yaml");
    Cli r = Cli.run("init", "--provider", "gcp", "--gpu", "h100", "-o", spec.toString());
    assertEquals(0, r.exit(), r.toString());
    String text = Files.readString(spec);
    assertTrue(text.startsWith("# A gpugen/v1 cluster spec: 1 node of H100 GPUs"), text);
    assertTrue(text.contains("    count: 1 "), text);
    String aws = Cli.run("init", "--gpu", "a100", "-o", "-").out();
    assertTrue(aws.startsWith("# A gpugen/v1 cluster spec: 2 nodes of A100"), aws);
    assertTrue(aws.contains("    count: 2\n"), aws);
    // The process umask decides (022 in the test run: 0644); never createTempFile's 0600.
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(spec);
    assertTrue(mode.contains(PosixFilePermission.OWNER_READ), mode.toString());
    assertTrue(
        mode.contains(PosixFilePermission.GROUP_READ)
            || mode.contains(PosixFilePermission.OTHERS_READ),
        "readable beyond the owner under a usual umask: " + mode);
  }

  @Test
  void aUsageErrorIsTheErrorOneUsageLineAndWhereToReadMore() {
    Cli r = Cli.run("validate", "--bogus", "x.yaml");
    assertEquals(2, r.exit(), r.toString());
    List<String> lines = r.err().lines().toList();
    assertEquals(3, lines.size(), r.err());
    assertEquals("gpugen: Unknown option: '--bogus'", lines.get(0));
    assertTrue(lines.get(1).startsWith("usage: gpugen validate [-"), lines.get(1));
    assertTrue(lines.get(1).endsWith("SPEC..."), lines.get(1));
    assertEquals("Run 'gpugen validate --help' for more.", lines.get(2));
    assertEquals("", r.out());
  }

  @Test
  void aMisspeltCommandGetsTheOneItProbablyMeant() {
    Cli r = Cli.run("valdate", "x.yaml");
    assertEquals(2, r.exit(), r.toString());
    assertEquals(
        "gpugen: unknown command 'valdate'; did you mean validate?",
        r.err().lines().findFirst().get());
    assertFalse(r.err().contains("generate-completion"), r.err());
  }

  @Test
  void dashVIsVerboseOnEveryCommand() {
    for (String command :
        List.of("validate", "render", "drift", "inventory", "init", "explain", "schema")) {
      Cli help = Cli.run(command, "--help");
      assertTrue(help.out().contains("-v, --verbose"), command + ": " + help.out());
    }
    Cli r = Cli.run("validate", "-v", "examples/aws-h100/cluster.yaml");
    assertEquals(0, r.exit(), r.toString());
  }

  @Test
  void explainListsEveryRuleInAlignedColumnsWithReaderRuleSummaries() {
    Cli r = Cli.run("explain");
    assertEquals(0, r.exit(), r.toString());
    List<String> lines = r.out().lines().toList();
    assertFalse(r.out().contains("(spec reader)"), r.out());
    assertTrue(
        r.out().contains("spec-unknown-key ") && r.out().contains("a key gpugen/v1 does not have"),
        r.out());
    int column = lines.get(0).indexOf("error");
    for (String line : lines) {
      String severity = line.substring(column).split(" ")[0];
      assertTrue(Set.of("error", "warning", "info").contains(severity), "aligned: " + line);
    }
  }

  @Test
  void infoFindingsAreInfosInTextAndJson() throws Exception {
    Path spec = tmp.resolve("info.yaml");
    Files.writeString(
        spec,
        SPEC.formatted("  provider: aws\n  region: us-east-1", "p5.48xlarge")
                .replace("kernel.numa_balancing: 0, ", "")
            + "kubernetes: {distribution: existing, version: \"1.33\"}\n");
    Cli text = Cli.run("validate", spec.toString());
    assertTrue(text.out().contains("info[sys-numa-balancing-enabled]"), text.out());
    assertTrue(text.out().contains("info[aws-vcpu-quota]"), text.out());
    assertTrue(text.out().endsWith(": 0 errors, 0 warnings, 2 infos\n"), text.out());
    Cli json = Cli.run("validate", "--format", "json", spec.toString());
    JsonNode doc = new ObjectMapper().readTree(json.out());
    assertEquals(2, doc.path("infos").asInt(), json.out());
    assertEquals(0, doc.path("errors").asInt(), json.out());
    assertTrue(
        json.out().startsWith("{\n  \"diagnostics\": [\n    {\n      \"column\": "), json.out());
  }

  @Test
  void anOverrideThatReplacesNoTemplateNamesTheNearestOne() throws Exception {
    Path t = Files.createDirectories(tmp.resolve("t/ansible/group_vars"));
    Files.writeString(t.resolve("al.yml.ftl"), "[=header]\n");
    Cli r =
        Cli.run(
            "render",
            "examples/aws-h100/cluster.yaml",
            "-o",
            tmp.resolve("out").toString(),
            "--templates",
            tmp.resolve("t").toString());
    assertEquals(4, r.exit(), r.toString());
    assertTrue(
        r.err()
            .contains(
                "ansible/group_vars/al.yml.ftl overrides no built-in template (the nearest is"
                    + " ansible/group_vars/all.yml.ftl)"),
        r.err());
    assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
  }

  @Test
  void aTemplateErrorPrintsFreeMarkersWholeMessage() throws Exception {
    Path t = Files.createDirectories(tmp.resolve("t/ansible/group_vars"));
    Files.writeString(t.resolve("all.yml.ftl"), "[=header]\n[=spec.metadata.nope]\n");
    Cli r =
        Cli.run(
            "render",
            "examples/aws-h100/cluster.yaml",
            "-o",
            tmp.resolve("out").toString(),
            "--templates",
            tmp.resolve("t").toString());
    assertEquals(4, r.exit(), r.toString());
    assertTrue(r.err().contains("all.yml.ftl:2"), r.err());
    // Not only the first line: the failing expression and FreeMarker's tips too.
    assertTrue(r.err().contains("==> spec.metadata.nope  [in template"), r.err());
    assertTrue(r.err().contains("Tip: "), r.err());
  }

  private static long findings(Cli r) {
    return r.out()
        .lines()
        .filter(l -> l.matches(".*:\\d+:\\d+: (error|warning|info)\\[.*"))
        .count();
  }

  /** A misspelt type is the error, with the name to write: no EFA advice on top. */
  @Test
  void aMisspeltInstanceTypeIsOneErrorThatNamesTheTypeToWrite() throws Exception {
    Path spec = tmp.resolve("typo.yaml");
    Files.writeString(
        spec,
        SPEC.formatted("  provider: aws\n  region: us-east-1", "p5.48xlarg")
            + "network: {fabric: efa}\n");
    Cli r = Cli.run("validate", spec.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        r.out()
            .contains(
                "error[aws-instance-type-invalid]: p5.48xlarg is not an EC2 instance type name"
                    + " (pool gpu); did you mean p5.48xlarge?"),
        r.out());
    assertFalse(r.out().contains("efa-unsupported-instance"), r.out());
    assertFalse(r.out().contains("network.fabric: tcp"), r.out());
  }

  @Test
  void aNonGpuTypeIsNamedAsSuchWithoutADidYouMean() throws Exception {
    Cli r = validate("  provider: aws\n  region: us-east-1\n", "m5.large");
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        r.out()
            .contains(
                "error[aws-instance-type-invalid]: m5.large is an EC2 instance type without NVIDIA"
                    + " GPUs (pool gpu; the m5 family)"),
        r.out());
    assertFalse(r.out().contains("did you mean"), r.out());
  }

  /** A missing instanceType is one finding that says so, not three about an empty name. */
  @Test
  void aMissingInstanceTypeIsOneFinding() throws Exception {
    Path spec = tmp.resolve("no-type.yaml");
    Files.writeString(
        spec,
        SPEC.formatted("  provider: aws\n  region: us-east-1\n  availabilityZone: us-east-1a", "x")
                .replace("    instanceType: x\n", "")
            + "network: {fabric: efa}\n");
    Cli r = Cli.run("validate", spec.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.out().contains("error[spec-pool-shape]: pool gpu needs an instanceType"), r.out());
    assertEquals(
        1,
        r.out().lines().filter(l -> l.contains("error[") || l.contains("warning[")).count(),
        r.out());
    assertFalse(r.out().contains("]:  is not"), "no finding about an empty name: " + r.out());
  }

  /** "metadata:" written without its name: the finding is at metadata and names what to add. */
  @Test
  void anEmptyMetadataSaysItNeedsAName() throws Exception {
    Path spec = tmp.resolve("no-name.yaml");
    Files.writeString(
        spec,
        SPEC.formatted("  provider: aws\n  region: us-east-1", "p5.48xlarge")
            .replace("  name: demo\n", ""));
    Cli r = Cli.run("validate", spec.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        r.out().contains(":3:1: error[spec-missing-key]: metadata needs name (Cluster name;"),
        r.out());
    assertTrue(r.out().contains(", indented under metadata\n"), r.out());
    assertFalse(r.out().contains("add metadata: a mapping"), r.out());
  }

  @Test
  void explainOfAMisspeltRuleOffersTheNearestOne() {
    Cli r = Cli.run("explain", "spec-unknwn-key");
    assertEquals(2, r.exit(), r.toString());
    assertEquals(
        "gpugen: no rule spec-unknwn-key; did you mean spec-unknown-key? (gpugen explain lists"
            + " them)\n",
        r.err());
  }

  /** A message that names its command already is not prefixed a second time. */
  @Test
  void noDoubledPrefix() throws Exception {
    Path spec = tmp.resolve("aws.yaml");
    Files.writeString(spec, SPEC.formatted("  provider: aws\n  region: us-east-1", "p5.48xlarge"));
    Cli r = Cli.run("down", spec.toString(), "-o", tmp.resolve("nowhere").toString());
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().startsWith("gpugen down: no render at "), r.err());
    assertFalse(r.err().contains("gpugen: gpugen"), r.err());
  }

  /** --check of a folder never rendered: one line saying so, not a diff of every file. */
  @Test
  void checkOfASpecNeverRenderedSaysSoInOneLine() throws Exception {
    Path spec = tmp.resolve("aws.yaml");
    Files.writeString(spec, SPEC.formatted("  provider: aws\n  region: us-east-1", "p5.48xlarge"));
    Path out = tmp.resolve("never");
    Cli r = Cli.run("render", spec.toString(), "-o", out.toString(), "--check");
    assertEquals(1, r.exit(), r.toString());
    assertEquals("", r.out(), "no diff");
    assertEquals(
        out
            + " holds no render of "
            + spec
            + " (no .gpugen-manifest.json); run: gpugen render "
            + spec
            + " -o "
            + out
            + "\n",
        r.err().substring(r.err().indexOf(out.toString())));
    assertEquals(1, r.err().lines().filter(l -> l.contains("holds no render")).count());
  }
}

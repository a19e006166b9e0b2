package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.Source;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * mirrors: the grammar takes only plain http(s) URLs, the plan knows which sources a render uses,
 * an air-gapped cluster needs a mirror for each of them (one finding per missing one, naming the
 * key), and a mirror nothing uses is reported.
 */
class MirrorsLintTest {
  private static final String AWS =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo}
      cloud: {provider: aws, region: us-east-1}
      network: {internet: %s}
      storage: {checkpointBucket: demo-ckpt%s}
      ansible: {mode: pull}
      pools:
        - {name: gpu, instanceType: %s, count: 2}
      software: {driver: "580.95.05", cuda: "12.8"}
      kernel:
        sysctl: {vm.max_map_count: 262144, kernel.numa_balancing: 0}
      """;

  private static final String LUSTRE =
      ", lustre: {capacityGiB: 1200, deploymentType: PERSISTENT_2, perUnitStorageThroughput: 125}";

  private static String aws(String internet, String storage, String type, String mirrors) {
    return AWS.formatted(internet, storage, type) + mirrors;
  }

  private static Gpugen.Checked check(String yaml) {
    return LinterTest.check(yaml, Optional.empty(), Set.of());
  }

  private static List<String> hints(Gpugen.Checked c, String rule) {
    return LinterTest.of(c, rule).stream().map(d -> d.hint().orElseThrow()).sorted().toList();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ftp://mirror.example.com/ubuntu",
        "https://user:secret@mirror.example.com/ubuntu",
        "https://mirror.example.com/ubuntu?token=x",
        "https://mirror.example.com/ubuntu#top",
        "https://mirror.example.com/ub untu",
        "https://mirror.example.com/{{ lookup('pipe','id') }}",
        "https://mirror.example.com/\\\"x",
        "https://mirror.example.com/$(id)",
        "https://mirror.example.com/../etc",
        "mirror.example.com/ubuntu",
        "https://"
      })
  void theGrammarRefusesAnythingButAPlainHttpUrl(String url) {
    String yaml =
        aws(
            "nat",
            "",
            "p5.48xlarge",
            "mirrors:\n  ubuntu: \"" + url.replace("\\", "\\\\").replace("\"", "\\\"") + "\"\n");
    Gpugen.Checked c = check(yaml);
    assertTrue(c.spec().isEmpty(), url + " was accepted: " + c.diagnostics());
    assertTrue(
        c.diagnostics().stream()
            .anyMatch(
                d -> d.severity() == Severity.ERROR && d.path().toString().contains("mirrors")),
        c.diagnostics()::toString);
  }

  @Test
  void thePlanKnowsWhichSourcesARenderUsesAndNormalisesTheMirrors() {
    ClusterPlan efa =
        TestSpecs.plan(
            TestSpecs.parse(
                aws(
                    "nat",
                    "",
                    "p5.48xlarge",
                    "mirrors: {cuda: \"https://m.example.com/cuda/\"}\n")));
    assertEquals(
        EnumSet.of(
            Source.UBUNTU, Source.CUDA, Source.NVIDIA_CONTAINER_TOOLKIT, Source.FILES, Source.GIT),
        efa.sources().used());
    assertEquals(Optional.of("https://m.example.com/cuda"), efa.sources().mirror(Source.CUDA));

    ClusterPlan tcp = TestSpecs.plan(TestSpecs.parse(aws("nat", "", "g6e.2xlarge", "")));
    assertEquals(
        EnumSet.of(Source.UBUNTU, Source.CUDA, Source.NVIDIA_CONTAINER_TOOLKIT, Source.GIT),
        tcp.sources().used(),
        "no EFA, no Lustre: no single files");

    ClusterPlan lustre = TestSpecs.plan(TestSpecs.parse(aws("nat", LUSTRE, "g6e.2xlarge", "")));
    assertTrue(lustre.sources().used().containsAll(EnumSet.of(Source.LUSTRE, Source.FILES)));
  }

  @Test
  void anAirGappedClusterNeedsAMirrorForEverySourceItUsesOneFindingEach() {
    Gpugen.Checked c = check(aws("none", LUSTRE, "p5.48xlarge", ""));
    assertEquals(
        List.of(
            "set mirrors.cuda to a mirror of https://developer.download.nvidia.com/compute/cuda/repos inside the network",
            "set mirrors.files to a mirror of https://efa-installer.amazonaws.com, https://github.com/NVIDIA/gdrcopy/archive and https://fsx-lustre-client-repo-public-keys.s3.amazonaws.com inside the network",
            "set mirrors.git to a mirror of https://github.com/wilicc/gpu-burn.git and https://github.com/NVIDIA/nccl-tests.git inside the network",
            "set mirrors.lustre to a mirror of https://fsx-lustre-client-repo.s3.amazonaws.com inside the network",
            "set mirrors.nvidiaContainerToolkit to a mirror of https://nvidia.github.io/libnvidia-container inside the network",
            "set mirrors.ubuntu to a mirror of http://archive.ubuntu.com/ubuntu (the image's apt sources) inside the network"),
        hints(c, "net-air-gapped-no-mirror"));
    for (Diagnostic d : LinterTest.of(c, "net-air-gapped-no-mirror")) {
      assertEquals(Severity.ERROR, d.severity());
      assertEquals("network.internet", d.path().toString());
    }

    // Every used source mirrored: no finding; a TCP pool without Lustre needs no files mirror.
    String all =
        "mirrors:\n"
            + "  ubuntu: https://m.example.com/ubuntu\n"
            + "  cuda: https://m.example.com/cuda\n"
            + "  nvidiaContainerToolkit: https://m.example.com/ctk\n"
            + "  git: https://git.example.com/mirrors\n";
    Gpugen.Checked tcp = check(aws("none", "", "g6e.2xlarge", all));
    assertEquals(List.of(), LinterTest.of(tcp, "net-air-gapped-no-mirror"));
    assertEquals(List.of(), LinterTest.of(tcp, "net-mirror-unused"));
    // The same mirrors with a NAT gateway: fine (a team's proxy), and no mirror is required there.
    assertEquals(
        List.of(), LinterTest.of(check(aws("nat", "", "g6e.2xlarge", all)), "net-mirror-unused"));
    assertEquals(
        List.of(),
        LinterTest.of(check(aws("nat", "", "g6e.2xlarge", "")), "net-air-gapped-no-mirror"));
  }

  @Test
  void aMirrorNothingDownloadsFromIsReportedAtItsKey() {
    Gpugen.Checked c =
        check(
            aws(
                "nat",
                "",
                "g6e.2xlarge",
                "mirrors:\n"
                    + "  kubernetes: https://m.example.com/k8s\n"
                    + "  lustre: https://m.example.com/fsx\n"
                    + "  files: https://m.example.com/files\n"));
    List<Diagnostic> unused = LinterTest.of(c, "net-mirror-unused");
    assertEquals(
        List.of("mirrors.files", "mirrors.kubernetes", "mirrors.lustre"),
        unused.stream().map(d -> d.path().toString()).sorted().toList());
    assertTrue(unused.stream().allMatch(d -> d.severity() == Severity.WARNING));
  }

  @Test
  void theGkeRenderConfiguresNoNodeSoEveryMirrorIsUnused() throws Exception {
    String gke = Files.readString(Path.of("examples/gcp-gke/cluster.yaml"));
    Gpugen.Checked c = check(gke + "\nmirrors:\n  cuda: https://m.example.com/cuda\n");
    assertEquals(
        List.of("mirrors.cuda"),
        LinterTest.of(c, "net-mirror-unused").stream().map(d -> d.path().toString()).toList());
  }

  @Test
  void anAirGappedEksClusterNeedsItsChartsAndRegistriesAndGetsThePrivateClusterEndpoints() {
    String eks =
        aws("none", "", "p5.48xlarge", "kubernetes: {distribution: eks, version: \"1.33\"}\n")
            .replace("region: us-east-1", "region: eu-west-1");
    Gpugen.Checked c = check(eks);
    List<String> hints = hints(c, "net-air-gapped-no-mirror");
    for (String want :
        List.of(
            "set mirrors.helm.gpuOperator to a mirror of https://helm.ngc.nvidia.com/nvidia inside the network",
            "set mirrors.helm.eksCharts to a mirror of https://aws.github.io/eks-charts inside the network",
            "set mirrors.registries: {\"nvcr.io\": URL} to a mirror of nvcr.io inside the network",
            "set mirrors.registries: {\"registry.k8s.io\": URL} to a mirror of registry.k8s.io inside the network",
            "set mirrors.registries: {\"602401143452.dkr.ecr.us-west-2.amazonaws.com\": URL} to a"
                + " mirror of 602401143452.dkr.ecr.us-west-2.amazonaws.com inside the network")) {
      assertTrue(hints.contains(want), want + " in " + hints);
    }
    ClusterPlan plan = c.plan().orElseThrow();
    assertEquals(
        List.of(
            "ec2",
            "ec2messages",
            "ecr.api",
            "ecr.dkr",
            "eks",
            "eks-auth",
            "ssm",
            "ssmmessages",
            "sts"),
        plan.vpcInterfaceEndpoints());
    // In us-west-2 the EKS cluster's ECR endpoints reach the EFA device plugin's image.
    Gpugen.Checked west = check(eks.replace("region: eu-west-1", "region: us-west-2"));
    assertTrue(
        hints(west, "net-air-gapped-no-mirror").stream().noneMatch(h -> h.contains("602401143452")),
        hints(west, "net-air-gapped-no-mirror")::toString);
  }

  @Test
  void registryMirrorsNeedARegistryHostAndAreUnusedWhereGpugenConfiguresNoContainerd()
      throws Exception {
    for (String bad : List.of("nvcr", "NVCR.IO", "nvcr.io/nvidia", "-x.io")) {
      Gpugen.Checked c =
          check(
              aws(
                  "nat",
                  "",
                  "p5.48xlarge",
                  "mirrors:\n  registries:\n    \"" + bad + "\": https://h.example.com\n"));
      assertTrue(c.spec().isEmpty(), bad + " was accepted");
    }
    String gke = Files.readString(Path.of("examples/gcp-gke/cluster.yaml"));
    Gpugen.Checked c =
        check(gke + "\nmirrors:\n  registries:\n    nvcr.io: https://h.example.com/v2/nvcr\n");
    assertEquals(
        List.of("mirrors.registries[\"nvcr.io\"]"),
        LinterTest.of(c, "net-mirror-unused").stream().map(d -> d.path().toString()).toList());
  }

  /**
   * A plain http mirror that serves a signing key (the cuda-keyring package, the toolkit's gpgkey,
   * the Lustre repository's key through mirrors.files) is an error: the key is installed without a
   * checksum, so whoever is on the path picks it. Signed packages (ubuntu) and checksum-pinned
   * files (the EFA installer without Lustre) stay allowed over http.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "p5.48xlarge||mirrors: {cuda: http://mirror.example.com/cuda}|mirrors.cuda",
        "p5.48xlarge||mirrors: {nvidiaContainerToolkit: http://mirror.example.com/ctk}"
            + "|mirrors.nvidiaContainerToolkit",
        "g6.48xlarge|LUSTRE|mirrors: {files: http://mirror.example.com/files}|mirrors.files",
        "p5.48xlarge||mirrors: {ubuntu: http://mirror.example.com/ubuntu}|",
        "p5.48xlarge||mirrors: {files: http://mirror.example.com/files}|",
        "g6.48xlarge|LUSTRE|mirrors: {cuda: https://mirror.example.com/cuda}|"
      })
  void aPlainHttpMirrorServingASigningKeyIsAnError(String row) {
    String[] p = row.split("\\|", -1);
    Gpugen.Checked c = check(aws("nat", p[1].equals("LUSTRE") ? LUSTRE : "", p[0], p[2] + "\n"));
    List<Diagnostic> ds = LinterTest.of(c, "sec-mirror-key-over-http");
    assertEquals(
        p[3].isEmpty() ? List.of() : List.of(p[3]),
        ds.stream().map(d -> d.path().toString()).toList(),
        c.diagnostics().toString());
    ds.forEach(d -> assertEquals(Severity.ERROR, d.severity()));
  }

  /**
   * A plain http mirror of what nothing on the nodes verifies: the GPU Operator chart (installed
   * without helm --verify, its pods privileged on every node), a registry whose images containerd
   * pulls by tag, the Git server play 05 builds nccl-tests from by tag. Each is an error of its own
   * rule; https mirrors and plain http for signed packages stay clean.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "helm: {gpuOperator: http://charts.example.com/nvidia}|mirrors.helm.gpuOperator",
        "helm: {cilium: http://charts.example.com/cilium}|mirrors.helm.cilium",
        "registries: {nvcr.io: \"http://registry.example.com:5000\"}|mirrors.registries[\"nvcr.io\"]",
        "git: http://git.example.com/mirrors|mirrors.git",
        "helm: {gpuOperator: https://charts.example.com/nvidia}|",
        "registries: {nvcr.io: \"https://registry.example.com:5000\"}|",
        "ubuntu: http://mirror.example.com/ubuntu|"
      })
  void aPlainHttpMirrorOfChartsImagesOrSourcesIsAnError(String row) throws Exception {
    String[] p = row.split("\\|", -1);
    String example = Files.readString(Path.of("examples/static-baremetal/cluster.yaml"));
    Gpugen.Checked c = check(example + "mirrors:\n  " + p[0] + "\n");
    List<Diagnostic> ds = LinterTest.of(c, "sec-unverified-mirror-over-http");
    assertEquals(
        p[1].isEmpty() ? List.of() : List.of(p[1]),
        ds.stream().map(d -> d.path().toString()).toList(),
        c.diagnostics().toString());
    ds.forEach(d -> assertEquals(Severity.ERROR, d.severity()));
    assertEquals(List.of(), LinterTest.of(c, "sec-mirror-key-over-http"));
  }
}

package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpugen.Cli;
import dev.gpugen.Golden;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The GitOps hand-off (gitops.argocd): the argocd/ manifests validated by a real parser against the
 * Application CRD's and the Kubernetes API's OpenAPI schemas (kubernetes-models, through
 * tools/k8s-validate), the GPU Operator values of play 03 equal to the Application's (Ansible
 * renders its side for real), and play 03 installing nothing when ArgoCD owns the components.
 */
@RealToolsTest
class GitOpsTest {
  static final Path VALIDATOR = Path.of("tools/k8s-validate/k8s-validate");
  static final Path VALIDATOR_LIB =
      Path.of("tools/k8s-validate/node_modules/@kubernetes-models/argo-cd/package.json");
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  /** A GKE spec (operator-installed driver) handed to ArgoCD: the DaemonSet moves to argocd/. */
  static final String GKE_GITOPS =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: gke-ft}
      cloud:
        provider: gcp
        project: ml-finetune-1
        region: us-central1
        gke: {cluster: ft, gpuDriver: operator, authorizedNetworks: [203.0.113.0/24]}
      pools:
        - {name: a100, instanceType: a2-ultragpu-8g, count: 2}
      software: {driver: "580.95.05", cuda: "12.8"}
      nccl:
        env: {NCCL_DEBUG: WARN}
      gitops:
        argocd:
          repoURL: git@git.example.com:ml/gke-ft.git
          targetRevision: 3f2c9a1d0b8e7f6a5c4d3e2f1a0b9c8d7e6f5a4b
      """;

  @TempDir static Path dir;

  /** The argocd/ folder of each render: the golden case, the prod example, a GKE spec. */
  private static final List<Path> ARGOCD = new ArrayList<>();

  @BeforeAll
  static void render() throws Exception {
    if (!Files.isExecutable(VALIDATOR) || !Files.isRegularFile(VALIDATOR_LIB)) {
      fail(
          "kubernetes-models is not installed ("
              + VALIDATOR_LIB
              + " is missing): run scripts/install-test-deps, or npm ci --prefix tools/k8s-validate");
    }
    ARGOCD.add(render("aws-gitops", RenderedCase.spec("aws-gitops")));
    ARGOCD.add(
        render(
            "aws-dev-prod-prod",
            Golden.repo().resolve("examples/aws-dev-prod/cluster.yaml"),
            "--env",
            "prod"));
    Path gke = dir.resolve("gke.yaml");
    Files.writeString(gke, GKE_GITOPS, StandardCharsets.UTF_8);
    ARGOCD.add(render("gke", gke));
  }

  private static Path render(String name, Path spec, String... extra) {
    Path out = dir.resolve(name);
    List<String> args = new ArrayList<>(List.of("render", spec.toString(), "-o", out.toString()));
    args.addAll(List.of(extra));
    Cli cli = Cli.run(args.toArray(String[]::new));
    if (cli.exit() != 0) {
      fail("gpugen render " + spec + " failed\n" + cli);
    }
    return out.resolve("argocd");
  }

  private static List<String> yamlFiles(Path argocd) throws IOException {
    try (Stream<Path> s = Files.walk(argocd)) {
      return s.filter(p -> p.toString().endsWith(".yaml")).map(Path::toString).sorted().toList();
    }
  }

  private static RealTools.Result validate(List<String> files) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(VALIDATOR.toAbsolutePath().toString()));
    cmd.addAll(files);
    return RealTools.run(Path.of("").toAbsolutePath(), TIMEOUT, Map.of(), cmd);
  }

  @Test
  void everyRenderedManifestIsValidAgainstItsSchema() throws Exception {
    int total = 0;
    for (Path argocd : ARGOCD) {
      List<String> files = yamlFiles(argocd);
      total += files.size();
      RealTools.Result r = validate(files);
      RenderedCase.assertExit(0, r);
      assertEquals("ok " + files.size() + " documents", r.output().strip(), r.output());
    }
    // root + 3 Applications + 2 ConfigMaps; root + 2 + 1; root + 2 + ConfigMap + DaemonSet.
    assertEquals(6 + 4 + 5, total);
  }

  @Test
  void theValidatorRejectsABrokenApplication() throws Exception {
    Path app = ARGOCD.get(0).resolve("apps/gpu-operator.yaml");
    String good = Files.readString(app);
    // A number where the CRD wants a string, and no destination at all.
    String broken =
        good.replace("chart: gpu-operator", "chart: 42")
            .replaceAll("(?s)  destination:\n    server: [^\n]*\n    namespace: [^\n]*\n", "");
    assertFalse(broken.equals(good) || broken.contains("destination:"), broken);
    Path bad = dir.resolve("broken-application.yaml");
    Files.writeString(bad, broken);
    RealTools.Result r = validate(List.of(app.toString(), bad.toString()));
    RenderedCase.assertExit(1, r);
    assertTrue(r.output().contains("/spec/source/chart must be string"), r.output());
    assertTrue(r.output().contains("must have required property destination"), r.output());
    assertTrue(r.output().contains("Application/mixed-fleet-staging-gpu-operator"), r.output());
  }

  /**
   * Play 03 without GitOps writes the chart values and the time-slicing ConfigMap through the real
   * role (its install tasks skipped by tag); they must equal what ArgoCD's Application and
   * ConfigMap carry for the same spec with GitOps on.
   */
  @Test
  void play03WritesTheValuesArgoCdInstallsWith() throws Exception {
    String withGitOps = Files.readString(RenderedCase.spec("aws-gitops"));
    String without = withGitOps.replaceAll("(?s)\ngitops:\n(  [^\n]*\n)+", "\n");
    assertFalse(without.contains("gitops:"), without);
    Path spec = dir.resolve("push.yaml");
    Files.writeString(spec, without);
    Path ansible = render("push", spec).resolveSibling("ansible");
    assertFalse(Files.exists(ansible.resolveSibling("argocd")), "no argocd/ without gitops");
    Path inventory = dir.resolve("local-inventory.yml");
    Files.writeString(
        inventory,
        """
        gpu_nodes:
          hosts:
            localhost:
              ansible_connection: local
              ansible_python_interpreter: /usr/bin/python3
        """);
    RealTools.Result r =
        RealTools.run(
            ansible,
            TIMEOUT,
            RealTools.YAML_INVENTORY,
            "ansible-playbook",
            "-i",
            inventory.toString(),
            "-e",
            "ansible_become=false",
            "--skip-tags",
            AnsibleToolsTest.SKIPPED_TAGS,
            "03-gpu-operator.yml");
    RenderedCase.assertExit(0, r);

    Map<String, Object> ansibleValues = load(ansible.resolve("reports/gpu-operator-values.yaml"));
    Map<String, Object> app = load(ARGOCD.get(0).resolve("apps/gpu-operator.yaml"));
    Object argoValues = at(app, "spec", "source", "helm", "valuesObject");
    assertEquals(argoValues, ansibleValues);
    assertEquals(
        Map.of("name", "time-slicing-config", "default", "any"),
        at(ansibleValues, "devicePlugin", "config"));

    Map<String, Object> ansibleMap =
        load(ansible.resolve("reports/gpu-operator-time-slicing.yaml"));
    Map<String, Object> argoMap =
        load(ARGOCD.get(0).resolve("manifests/device-plugin-config/time-slicing-config.yaml"));
    assertEquals(argoMap.get("data"), ansibleMap.get("data"));
    assertEquals(at(argoMap, "metadata", "name"), at(ansibleMap, "metadata", "name"));
    assertEquals(at(argoMap, "metadata", "namespace"), at(ansibleMap, "metadata", "namespace"));
    assertTrue(String.valueOf(at(ansibleMap, "data", "any")).endsWith("replicas: 4"));
  }

  /**
   * With GitOps on, play 03 lists no task that installs or applies anything (helm, the repository,
   * the namespace, the ConfigMap); without it, it does, so the check can fail. The node labels and
   * taints stay.
   */
  @Test
  void play03WithGitOpsInstallsNothing() throws Exception {
    Path gitops = ARGOCD.get(0).resolveSibling("ansible");
    String without =
        Files.readString(RenderedCase.spec("aws-gitops"))
            .replaceAll("(?s)\ngitops:\n(  [^\n]*\n)+", "\n");
    Files.writeString(dir.resolve("push-list.yaml"), without);
    Path push = render("push-list", dir.resolve("push-list.yaml")).resolveSibling("ansible");

    List<String> installs =
        List.of(
            "Install the GPU Operator at the spec's chart version",
            "Add the NVIDIA Helm repository",
            "Create the operator's namespace",
            "Apply the time-slicing ConfigMap",
            "Write the chart values");
    String pushTasks = listTasks(push);
    String gitopsTasks = listTasks(gitops);
    for (String task : installs) {
      assertTrue(pushTasks.contains(task), task + " in\n" + pushTasks);
      assertFalse(gitopsTasks.contains(task), task + " in\n" + gitopsTasks);
    }
    assertTrue(gitopsTasks.contains("Wait for each gpugen Application to be Synced and Healthy"));
    assertTrue(gitopsTasks.contains("Label the node"), gitopsTasks);
    assertTrue(gitopsTasks.contains("Taint the node"), gitopsTasks);

    String tasks = Files.readString(gitops.resolve("roles/gpu_operator/tasks/main.yml"));
    assertFalse(tasks.contains("kubernetes.core.helm"), tasks);
    // The only k8s write left is the Node patch (labels); everything else is k8s_info.
    assertEquals(1, tasks.split("kubernetes\\.core\\.k8s:", -1).length - 1, tasks);
    assertTrue(tasks.contains("kind: Node"), tasks);
    assertFalse(Files.exists(gitops.resolve("roles/gpu_operator/templates/values.yaml.j2")));
  }

  private static String listTasks(Path ansible) throws Exception {
    RealTools.Result r =
        RealTools.run(
            ansible,
            TIMEOUT,
            Map.of(),
            "ansible-playbook",
            "--list-tasks",
            "-i",
            "localhost,",
            "03-gpu-operator.yml");
    RenderedCase.assertExit(0, r);
    return r.output();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> load(Path yaml) throws IOException {
    return (Map<String, Object>)
        new Load(LoadSettings.builder().build()).loadFromString(Files.readString(yaml));
  }

  @SuppressWarnings("unchecked")
  private static Object at(Map<String, Object> m, String... keys) {
    Object v = m;
    for (String k : keys) {
      v = ((Map<String, Object>) v).get(k);
    }
    return v;
  }
}

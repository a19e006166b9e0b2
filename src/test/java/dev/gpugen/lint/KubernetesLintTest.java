package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The kubernetes: section: grammar, distribution per provider, minors, ignored settings. */
class KubernetesLintTest {
  private static final String AWS =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo}
      cloud: {provider: aws, region: us-east-1}
      network: {sshIngressCidrs: [203.0.113.0/24]}
      storage: {checkpointBucket: demo-ckpt}
      pools:
        - {name: a, instanceType: p5.48xlarge, count: 2}
      software: {driver: "580.95.05", cuda: "12.8"}
      kernel:
        sysctl: {vm.max_map_count: 262144, kernel.numa_balancing: 0}
      %s
      """;

  private static final String STATIC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: lab}
      cloud: {provider: static}
      pools:
        - name: h100
          gpu: {model: h100-sxm, count: 8}
          hosts: [{name: hgx-01, address: 10.40.0.11}]
      software: {driver: "580.95.05", cuda: "12.8"}
      %s
      """;

  private static Gpugen.Checked check(String spec, String tail) {
    return LinterTest.check(spec.formatted(tail), Optional.empty(), Set.of());
  }

  private static List<Diagnostic> of(Gpugen.Checked c, String rule) {
    return LinterTest.of(c, rule);
  }

  @Test
  void withoutTheSectionValidateSaysSoAsInformation() {
    Gpugen.Checked c = check(AWS, "");
    List<Diagnostic> ds = of(c, "k8s-not-configured");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertEquals(Severity.INFO, ds.get(0).severity());
    assertTrue(ds.get(0).message().contains("plays 03-05 skip"), ds.toString());
    assertEquals(
        List.of(),
        of(
            check(AWS, "kubernetes: {distribution: existing, version: \"1.33\"}"),
            "k8s-not-configured"));
  }

  @Test
  void eksIsAwsOnlyAndKubeadmStaticOnly() {
    Gpugen.Checked eksStatic = check(STATIC, "kubernetes: {distribution: eks, version: \"1.33\"}");
    assertEquals(1, of(eksStatic, "k8s-distribution-provider").size(), eksStatic.toString());
    assertEquals(Severity.ERROR, of(eksStatic, "k8s-distribution-provider").get(0).severity());
    // kubeadm on AWS: the Terraform creates the control plane (push mode only).
    Gpugen.Checked kubeadmAws =
        check(AWS, "kubernetes: {distribution: kubeadm, version: \"1.33\"}");
    assertEquals(List.of(), of(kubeadmAws, "k8s-distribution-provider"));
    Gpugen.Checked kubeadmAwsPull =
        check(
            AWS,
            "kubernetes: {distribution: kubeadm, version: \"1.33\"}\n"
                + "ansible: {mode: pull, pull: {source: s3}}");
    assertTrue(
        of(kubeadmAwsPull, "k8s-distribution-provider").get(0).message().contains("push only"),
        kubeadmAwsPull::toString);
    Gpugen.Checked noControlPlane =
        check(STATIC, "kubernetes: {distribution: kubeadm, version: \"1.33\"}");
    assertTrue(
        of(noControlPlane, "k8s-distribution-provider")
            .get(0)
            .message()
            .contains("controlPlane.hosts"));
    assertEquals(
        List.of(),
        of(
            check(
                STATIC,
                "kubernetes: {distribution: kubeadm, version: \"1.33\","
                    + " controlPlane: {hosts: [{name: cp01, address: 10.40.0.5}]}}"),
            "k8s-distribution-provider"));
  }

  private static final String HA =
      "kubernetes: {distribution: kubeadm, version: \"1.33\", controlPlane: {hosts:"
          + " [{name: cp01, address: 10.40.0.5}, {name: cp02, address: 10.40.0.6},"
          + " {name: cp03, address: 10.40.0.7}]%s}}";

  private static List<Diagnostic> at(Gpugen.Checked c, String path) {
    return c.diagnostics().stream().filter(d -> d.path().toString().equals(path)).toList();
  }

  @Test
  void anHaControlPlaneNeedsAnEndpointAndAnOddCount() {
    Gpugen.Checked none = check(STATIC, HA.formatted(""));
    assertEquals(1, of(none, "k8s-control-plane-endpoint-missing").size(), none.toString());
    assertEquals(Severity.ERROR, of(none, "k8s-control-plane-endpoint-missing").get(0).severity());
    Gpugen.Checked ok = check(STATIC, HA.formatted(", endpoint: \"k8s-api.corp.example:6443\""));
    assertEquals(List.of(), of(ok, "k8s-control-plane-endpoint-missing"));
    assertEquals(List.of(), of(ok, "k8s-control-plane-even"));
    assertEquals(List.of(), of(ok, "k8s-distribution-provider"));
    assertTrue(
        ok.diagnostics().stream().noneMatch(d -> d.severity() == Severity.ERROR), ok::toString);
    // One host needs no endpoint; two are even.
    assertEquals(
        List.of(),
        of(
            check(
                STATIC,
                "kubernetes: {distribution: kubeadm, version: \"1.33\","
                    + " controlPlane: {hosts: [{name: cp01, address: 10.40.0.5}]}}"),
            "k8s-control-plane-endpoint-missing"));
    Gpugen.Checked two =
        check(
            STATIC,
            "kubernetes: {distribution: kubeadm, version: \"1.33\", controlPlane: {hosts:"
                + " [{name: cp01, address: 10.40.0.5}, {name: cp02, address: 10.40.0.6}],"
                + " endpoint: \"10.40.0.4:6443\"}}");
    assertEquals(1, of(two, "k8s-control-plane-even").size(), two.toString());
  }

  @Test
  void theControlPlaneKeysOfOneProviderAreIgnoredOnTheOther() {
    Gpugen.Checked awsHosts =
        check(
            AWS,
            "kubernetes: {distribution: kubeadm, version: \"1.33\", controlPlane: {count: 2,"
                + " hosts: [{name: cp01, address: 10.0.0.5}], endpoint: \"api.example:6443\"}}");
    List<String> paths =
        of(awsHosts, "k8s-setting-ignored").stream().map(d -> d.path().toString()).toList();
    assertEquals(
        List.of("kubernetes.controlPlane.hosts", "kubernetes.controlPlane.endpoint"),
        paths,
        awsHosts::toString);
    assertEquals(
        "kubernetes.controlPlane.count",
        of(awsHosts, "k8s-control-plane-even").get(0).path().toString());
    Gpugen.Checked staticCount =
        check(
            STATIC,
            "kubernetes: {distribution: kubeadm, version: \"1.33\", controlPlane: {instanceType: m7i.large,"
                + " count: 3, hosts: [{name: cp01, address: 10.40.0.5}]}}");
    assertEquals(
        List.of("kubernetes.controlPlane.instanceType", "kubernetes.controlPlane.count"),
        of(staticCount, "k8s-setting-ignored").stream().map(d -> d.path().toString()).toList(),
        staticCount::toString);
    assertEquals(List.of(), of(staticCount, "k8s-control-plane-even"));
  }

  @Test
  void theEndpointIsStrictlyHostColonPort() {
    for (String good :
        List.of("k8s-api.corp.example:6443", "10.0.0.4:443", "api:1", "lb-1.example.com:65535")) {
      Gpugen.Checked c = check(STATIC, HA.formatted(", endpoint: \"" + good + "\""));
      assertEquals(List.of(), at(c, "kubernetes.controlPlane.endpoint"), good);
    }
    for (String bad :
        List.of(
            "k8s-api.corp.example",
            "k8s-api.corp.example:0",
            "k8s-api.corp.example:65536",
            "k8s-api.corp.example:06443",
            "https://k8s-api.corp.example:6443",
            "k8s-api.corp.example:6443/",
            "10.0.0.300:6443",
            "[fd00::1]:6443",
            "-api.example:6443",
            "api..example:6443",
            "K8S-API.example:6443",
            "api.example:6443 --token x",
            ":6443")) {
      Gpugen.Checked c = check(STATIC, HA.formatted(", endpoint: \"" + bad + "\""));
      List<Diagnostic> ds = at(c, "kubernetes.controlPlane.endpoint");
      assertEquals(1, ds.size(), bad + ": " + c.diagnostics());
      assertEquals(Severity.ERROR, ds.get(0).severity(), bad);
    }
  }

  @Test
  void gkeRefusesAnyDistributionButExisting() throws Exception {
    String gke =
        java.nio.file.Files.readString(
                dev.gpugen.Golden.repo().resolve("examples/gcp-gke/cluster.yaml"))
            // Its kubernetes: holds only systemPool; each case below writes its own.
            .replaceFirst("(?m)^kubernetes:\n  systemPool: .*\n", "");
    Gpugen.Checked eks =
        LinterTest.check(
            gke + "kubernetes: {distribution: eks, version: \"1.33\"}\n",
            Optional.empty(),
            Set.of());
    List<Diagnostic> ds = of(eks, "k8s-distribution-provider");
    assertEquals(1, ds.size(), eks.diagnostics().toString());
    assertTrue(ds.get(0).message().contains("the cluster is GKE's"), ds.toString());
    Gpugen.Checked existing =
        LinterTest.check(
            gke + "kubernetes: {distribution: existing, version: \"1.33\"}\n",
            Optional.empty(),
            Set.of());
    assertEquals(List.of(), of(existing, "k8s-distribution-provider"));
  }

  @Test
  void minorsTheDistributionDoesNotOfferAreErrors() {
    Gpugen.Checked old = check(AWS, "kubernetes: {distribution: eks, version: \"1.27\"}");
    List<Diagnostic> ds = of(old, "k8s-version-unsupported");
    assertEquals(1, ds.size(), old.diagnostics().toString());
    assertTrue(ds.get(0).message().startsWith("Kubernetes 1.27 is not a minor eks offers"));
    assertEquals("kubernetes.version", ds.get(0).path().toString());
    assertEquals(
        1,
        of(
                check(
                    STATIC,
                    "kubernetes: {distribution: kubeadm, version: \"1.30\","
                        + " controlPlane: {hosts: [{name: cp01, address: 10.40.0.5}]}}"),
                "k8s-version-unsupported")
            .size());
    // existing is whatever the cluster runs: no minor list to hold it to.
    assertEquals(
        List.of(),
        of(
            check(AWS, "kubernetes: {distribution: existing, version: \"1.27\"}"),
            "k8s-version-unsupported"));
  }

  @Test
  void anOperatorReleaseNotValidatedOnTheMinorIsAWarning() {
    // The default operator, v25.3.0, is validated on 1.29-1.33.
    Gpugen.Checked c = check(AWS, "kubernetes: {distribution: eks, version: \"1.34\"}");
    List<Diagnostic> ds = of(c, "k8s-operator-unvalidated");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertEquals(Severity.WARNING, ds.get(0).severity());
    assertTrue(
        ds.get(0)
            .message()
            .equals("GPU Operator v25.3.0 is validated on Kubernetes 1.29-1.33, not 1.34"),
        ds.toString());
    assertEquals(
        List.of(),
        of(
            check(AWS, "kubernetes: {distribution: eks, version: \"1.33\"}"),
            "k8s-operator-unvalidated"));
  }

  @Test
  void keysTheDistributionDoesNotReadAreFlagged() {
    Gpugen.Checked c =
        check(
            AWS,
            "kubernetes: {distribution: existing, version: \"1.33\", cni: calico,"
                + " admins: [\"arn:aws:iam::123456789012:role/platform-admin\"]}");
    List<Diagnostic> ds = of(c, "k8s-setting-ignored");
    assertEquals(
        List.of("kubernetes.admins", "kubernetes.cni"),
        ds.stream().map(d -> d.path().toString()).sorted().toList(),
        ds.toString());
    Gpugen.Checked privateCidrs =
        check(
            AWS,
            "kubernetes: {distribution: eks, version: \"1.33\", publicCidrs: [203.0.113.0/24]}");
    assertEquals(
        "kubernetes.publicCidrs does nothing while endpointAccess is private",
        of(privateCidrs, "k8s-setting-ignored").get(0).message());
  }

  /**
   * apiIngressCidrs opens an API server gpugen creates on aws; with another distribution it does
   * nothing. Unwritten, it is the SSH CIDRs; with neither and no bastion the private API admits no
   * controller, and a /0 opens it to the internet.
   */
  @Test
  void theApiIngressCidrsAreReadWhereGpugenCreatesTheApiServer() {
    assertEquals(
        List.of("kubernetes.apiIngressCidrs"),
        of(
                check(
                    AWS,
                    "kubernetes: {distribution: existing, version: \"1.33\","
                        + " apiIngressCidrs: [10.8.0.0/16]}"),
                "k8s-setting-ignored")
            .stream()
            .map(d -> d.path().toString())
            .toList());
    assertEquals(
        List.of(),
        of(
            check(
                AWS,
                "kubernetes: {distribution: eks, version: \"1.33\","
                    + " apiIngressCidrs: [10.8.0.0/16]}"),
            "k8s-setting-ignored"));
    String noSsh = AWS.replace("network: {sshIngressCidrs: [203.0.113.0/24]}", "");
    assertEquals(
        List.of("kubernetes.endpointAccess"),
        of(
                check(noSsh, "kubernetes: {distribution: eks, version: \"1.33\"}"),
                "k8s-api-unreachable")
            .stream()
            .map(d -> d.path().toString())
            .toList());
    assertEquals(
        List.of(),
        of(check(AWS, "kubernetes: {distribution: eks, version: \"1.33\"}"), "k8s-api-unreachable"),
        "the SSH CIDRs are the default");
    assertEquals(
        List.of("kubernetes.apiIngressCidrs[0]"),
        of(
                check(
                    AWS,
                    "kubernetes: {distribution: kubeadm, version: \"1.33\","
                        + " apiIngressCidrs: [0.0.0.0/0], controlPlane: {instanceType: m7i.xlarge,"
                        + " count: 1}}"),
                "sec-api-open-to-world")
            .stream()
            .map(d -> d.path().toString())
            .toList());
  }

  @Test
  void aPublicEndpointNeedsItsCidrsAndNeverTheWholeInternet() {
    Gpugen.Checked none =
        check(
            AWS,
            "kubernetes: {distribution: eks, version: \"1.33\", endpointAccess: public-and-private}");
    assertEquals(1, of(none, "eks-public-endpoint-open").size(), none.diagnostics().toString());
    Gpugen.Checked world =
        check(
            AWS,
            "kubernetes: {distribution: eks, version: \"1.33\", endpointAccess: public-and-private,"
                + " publicCidrs: [0.0.0.0/0]}");
    assertEquals(
        "kubernetes.publicCidrs[0]",
        of(world, "eks-public-endpoint-open").get(0).path().toString());
    Gpugen.Checked ok =
        check(
            AWS,
            "kubernetes: {distribution: eks, version: \"1.33\", endpointAccess: public-and-private,"
                + " publicCidrs: [203.0.113.0/24]}");
    assertEquals(List.of(), of(ok, "eks-public-endpoint-open"));
  }

  @Test
  void theGrammarRefusesBadValuesWithPositions() {
    Gpugen.Checked c =
        check(
            AWS,
            "kubernetes: {distribution: openshift, version: 1.33, admins: [\"arn:aws:iam::1:root\"]}");
    List<String> rules = c.diagnostics().stream().map(Diagnostic::ruleId).toList();
    assertTrue(rules.contains("spec-type") || rules.contains("spec-enum"), rules.toString());
    assertTrue(
        c.diagnostics().stream()
            .anyMatch(d -> d.path().toString().equals("kubernetes.distribution")),
        c.diagnostics().toString());
    assertTrue(
        c.diagnostics().stream().anyMatch(d -> d.path().toString().equals("kubernetes.version")),
        c.diagnostics().toString());
    assertTrue(
        c.diagnostics().stream().anyMatch(d -> d.path().toString().equals("kubernetes.admins[0]")),
        c.diagnostics().toString());
  }

  /** A kube-proxy pin of another minor is refused: EKS offers kube-proxy at the cluster's only. */
  @Test
  void aKubeProxyPinOfAnotherMinorIsRefused() {
    Gpugen.Checked other =
        check(
            AWS,
            "kubernetes: {distribution: eks, version: \"1.33\", addons: {kube-proxy:"
                + " v1.32.9-eksbuild.2}}");
    List<Diagnostic> found = of(other, "k8s-addon-version-unknown");
    assertEquals(1, found.size(), other.toString());
    assertEquals("kubernetes.addons.kube-proxy", found.get(0).path().toString());
    Gpugen.Checked same =
        check(
            AWS,
            "kubernetes: {distribution: eks, version: \"1.33\", addons: {kube-proxy:"
                + " v1.33.5-eksbuild.2}}");
    assertEquals(List.of(), of(same, "k8s-addon-version-unknown"), same.toString());
  }
}

package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.Gpugen;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Position;
import dev.gpugen.spec.Severity;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An address or CIDR from RFC 5737's documentation ranges (gpugen init's placeholders) is a warning
 * wherever the spec needs a real one: ingress lists, host addresses, the control-plane endpoint,
 * the bastion, the VPC.
 */
class DocumentationAddressLintTest {
  private static final String RULE = "spec-documentation-address";

  private static final String AWS =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo}
      cloud: {provider: aws, region: us-east-1, sshKeyName: ops}
      network: {%s}
      pools:
        - {name: gpu, instanceType: p5.48xlarge, count: 2}
      software: {driver: "580.95.05", cuda: "12.8"}
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
          hosts:
            - {name: hgx-01, address: 10.40.0.11}
            - {name: hgx-02, address: %s}
      software: {driver: "580.95.05", cuda: "12.8"}
      kubernetes:
        distribution: kubeadm
        version: "1.33"
        controlPlane:
          hosts:
            - {name: cp-01, address: %s}
          endpoint: %s
      %s
      """;

  private static final String GKE =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo}
      cloud:
        provider: gcp
        project: ml-platform
        region: us-central1
        availabilityZone: us-central1-a
        gke: {cluster: demo, authorizedNetworks: [%s]}
      pools:
        - {name: a100, instanceType: a2-ultragpu-8g, count: 2}
      software: {driver: "580.95.05", cuda: "12.8"}
      """;

  private static Gpugen.Checked check(String yaml) {
    return LinterTest.check(yaml, Optional.empty(), Set.of());
  }

  private static Gpugen.Checked aws(String network, String tail) {
    return check(AWS.formatted(network, tail));
  }

  /** This rule's findings as "path @line:column". */
  private static List<String> found(Gpugen.Checked c) {
    return LinterTest.of(c, RULE).stream()
        .map(d -> d.path() + " @" + d.position().line() + ":" + d.position().column())
        .toList();
  }

  @Test
  void anIngressPlaceholderIsAWarningAtItsValueWithTheFix() {
    Gpugen.Checked c =
        aws(
            "sshIngressCidrs: [10.8.0.0/16]",
            "kubernetes: {distribution: eks, version: \"1.33\","
                + " apiIngressCidrs: [10.8.0.0/16, 203.0.113.0/24]}");
    List<Diagnostic> ds = LinterTest.of(c, RULE);
    assertEquals(1, ds.size(), c.diagnostics().toString());
    Diagnostic d = ds.get(0);
    assertEquals(Severity.WARNING, d.severity());
    assertEquals("kubernetes.apiIngressCidrs[1]", d.path().toString());
    // Line 9 of the spec, the second list entry.
    assertEquals(new Position(9, 81), d.position());
    assertEquals(
        "kubernetes.apiIngressCidrs[1] 203.0.113.0/24 is a documentation range (RFC 5737): no"
            + " real client or host has it",
        d.message());
    assertEquals(
        Optional.of(
            "replace it with the address range your controller / office / CI reaches the API"
                + " from"),
        d.hint());
  }

  @Test
  void realRangesAndRangesThatOnlyContainOneAreQuiet() {
    assertEquals(
        List.of(),
        found(
            aws(
                "vpcCidr: 10.42.0.0/16, sshIngressCidrs: [10.8.0.0/16, 192.0.0.0/16, 0.0.0.0/0,"
                    + " 203.0.114.0/24, 198.51.101.7/32]",
                "kubernetes: {distribution: eks, version: \"1.33\","
                    + " endpointAccess: public-and-private, publicCidrs: [198.18.0.0/15]}")));
    assertEquals(
        List.of(), found(check(STATIC.formatted("10.40.0.12", "10.40.0.5", "cp:6443", ""))));
    assertEquals(List.of(), found(check(GKE.formatted("100.64.0.0/10"))));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "sshIngressCidrs: [192.0.2.0/24]|network.sshIngressCidrs[0] @5:29",
        "sshIngressCidrs: [10.8.0.0/16, 198.51.100.7/32]|network.sshIngressCidrs[1] @5:42",
        "vpcCidr: 203.0.113.0/24|network.vpcCidr @5:20",
        "vpcCidr: 10.0.0.0/16, subnetCidr: 10.0.0.0/20|",
      })
  void everyAwsNetworkValueInTheRangesIsFound(String row) {
    String[] p = row.split("\\|", -1);
    List<String> want = p[1].isEmpty() ? List.of() : List.of(p[1]);
    assertEquals(want, found(aws(p[0], "")));
  }

  @Test
  void anInheritedApiIngressListIsReportedOnceWhereItIsWritten() {
    // apiIngressCidrs defaults to network.sshIngressCidrs: one finding, at the SSH list.
    Gpugen.Checked c =
        aws(
            "sshIngressCidrs: [203.0.113.0/24]",
            "kubernetes: {distribution: eks, version: \"1.33\"}");
    assertEquals(List.of("network.sshIngressCidrs[0] @5:29"), found(c));
    assertEquals(
        Optional.of(
            "replace it with the address range your controller / office / CI reaches the nodes'"
                + " SSH from"),
        LinterTest.of(c, RULE).get(0).hint());
  }

  @Test
  void publicCidrsAndGkeAuthorizedNetworksAreApiIngressToo() {
    assertEquals(
        List.of("kubernetes.publicCidrs[0] @9:100"),
        found(
            aws(
                "sshIngressCidrs: [10.8.0.0/16]",
                "kubernetes: {distribution: eks, version: \"1.33\","
                    + " endpointAccess: public-and-private, publicCidrs: [198.51.100.0/24]}")));
    assertEquals(
        List.of("cloud.gke.authorizedNetworks[0] @9:45"),
        found(check(GKE.formatted("203.0.113.0/24"))));
  }

  @Test
  void staticHostsTheControlPlaneAndTheBastionAreHostAddresses() {
    Gpugen.Checked c =
        check(
            STATIC.formatted(
                "192.0.2.12",
                "192.0.2.5",
                "192.0.2.5:6443",
                "ansible: {bastion: {host: 198.51.100.9, user: ops}}"));
    assertEquals(
        List.of(
            "pools[0].hosts[1].address @10:33",
            "kubernetes.controlPlane.hosts[0].address @17:32",
            "kubernetes.controlPlane.endpoint @18:15",
            "ansible.bastion.host @19:27"),
        found(c));
    Diagnostic d = LinterTest.of(c, RULE).get(0);
    assertEquals(
        "pools[0].hosts[1].address 192.0.2.12 is a documentation address (RFC 5737,"
            + " 192.0.2.0/24): no real host has it",
        d.message());
    assertEquals(Optional.of("replace it with the address Ansible reaches the host at"), d.hint());
  }

  @Test
  void anOverlaysPlaceholderIsReportedAtTheOverlaysValue() {
    String yaml =
        AWS.formatted(
            "sshIngressCidrs: [10.8.0.0/16]",
            "environments:\n  dev:\n    network: {sshIngressCidrs: [10.8.0.0/16, 192.0.2.7/32]}");
    // Without --env every environment is linted too, so the overlay's value is found either way.
    assertEquals(List.of("network.sshIngressCidrs[1] @11:46"), found(check(yaml)));
    Gpugen.Checked dev = LinterTest.check(yaml, Optional.of("dev"), Set.of());
    assertEquals(List.of("network.sshIngressCidrs[1] @11:46"), found(dev));
    assertEquals(
        "network.sshIngressCidrs[1] 192.0.2.7/32 is inside 192.0.2.0/24, a documentation range"
            + " (RFC 5737): no real client or host has it",
        LinterTest.of(dev, RULE).get(0).message());
  }

  @Test
  void theHostOfAMirrorUrlIsAHostAddress() {
    Gpugen.Checked c =
        aws(
            "sshIngressCidrs: [10.8.0.0/16]",
            "mirrors: {ubuntu: https://192.0.2.10:8443/ubuntu, cuda: https://10.0.0.5/cuda,"
                + " registries: {nvcr.io: https://203.0.113.5/v2/nvcr, docker.io:"
                + " https://mirror.example.com/v2/docker}}");
    assertEquals(
        List.of("mirrors.ubuntu @9:19", "mirrors.registries[\"nvcr.io\"] @9:102"), found(c));
    assertEquals(
        "mirrors.ubuntu https://192.0.2.10:8443/ubuntu is a documentation address (RFC 5737,"
            + " 192.0.2.0/24): no real host has it",
        LinterTest.of(c, RULE).get(0).message());
  }
}

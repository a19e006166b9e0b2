package dev.gpugen.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.TestSpecs;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.testing.Records;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** kubeadm's pod and Service networks keep clear of the hosts' own network and of each other. */
class KubeadmNetworkTest {
  @Test
  void theFirstCandidateHoldingNoHostIsTaken() {
    List<String> none = List.of();
    List<String> pods = KubeadmNetwork.POD_CANDIDATES;
    assertEquals(
        "10.244.0.0/16", KubeadmNetwork.first(pods, List.of("10.40.0.5", "10.40.0.11"), none));
    assertEquals(
        "192.168.0.0/16", KubeadmNetwork.first(pods, List.of("10.244.0.5", "gpu-1.lab"), none));
    assertEquals(
        "172.16.0.0/16", KubeadmNetwork.first(pods, List.of("10.244.3.4", "192.168.1.20"), none));
    // Hosts in all three: the first, and the linter reports it.
    assertEquals(
        "10.244.0.0/16",
        KubeadmNetwork.first(pods, List.of("10.244.0.1", "192.168.0.1", "172.16.9.9"), none));
  }

  /** On AWS the VPC and subnet networks are avoided, whichever holds the other. */
  @Test
  void aCandidateOverlappingANetworkIsSkipped() {
    List<String> pods = KubeadmNetwork.POD_CANDIDATES;
    assertEquals("10.244.0.0/16", KubeadmNetwork.first(pods, List.of(), List.of("10.0.0.0/16")));
    assertEquals("192.168.0.0/16", KubeadmNetwork.first(pods, List.of(), List.of("10.0.0.0/8")));
    assertEquals(
        "192.168.0.0/16", KubeadmNetwork.first(pods, List.of(), List.of("10.244.16.0/20")));
    assertEquals(
        "172.16.0.0/16",
        KubeadmNetwork.first(pods, List.of(), List.of("10.244.0.0/14", "192.168.128.0/17")));
  }

  @Test
  void onlyLiteralIpv4AddressesAreCompared() {
    assertTrue(KubeadmNetwork.contains("10.244.0.0/16", "10.244.255.255"));
    assertFalse(KubeadmNetwork.contains("10.244.0.0/16", "10.245.0.0"));
    assertFalse(KubeadmNetwork.contains("10.244.0.0/16", "10.244.0.1.example.com"));
    assertFalse(KubeadmNetwork.contains("10.244.0.0/16", "fd00::10:244:0:1"));
    assertFalse(KubeadmNetwork.contains("192.168.0.0/16", "192.168.0.256"));
  }

  /**
   * The Service network is set explicitly and avoids the VPC: kubeadm's default 10.96.0.0/12 would
   * overlap a VPC in 10.96/16, so 172.20.0.0/16 is taken; in 10/8 10.100/16 stays clear of a VPC
   * that holds only 10.96/16... but 172.20/16 comes first.
   */
  @Test
  void theServiceNetworkAvoidsTheVpcThePodNetworkAndTheHosts() throws Exception {
    ClusterSpec aws =
        TestSpecs.read(
            Path.of("src/test/resources/golden/aws-kubeadm/spec.yaml"), Optional.empty());
    KubeadmNetwork n = TestSpecs.plan(aws).kubeadmNetwork().orElseThrow();
    assertEquals("10.244.0.0/16", n.podCidr());
    assertEquals("10.96.0.0/12", n.serviceCidr());
    assertEquals(List.of(), n.clashes());

    ClusterSpec in96 = Records.with(aws, "network.vpcCidr", Optional.of("10.96.0.0/16"));
    in96 = Records.with(in96, "network.subnetCidr", Optional.of("10.96.0.0/20"));
    n = TestSpecs.plan(in96).kubeadmNetwork().orElseThrow();
    assertEquals("172.20.0.0/16", n.serviceCidr());
    assertEquals(List.of(), n.clashes());

    // A static host at 10.100.3.4 and one in 172.20/16: 10.96/12 holds the first, so 172.20/16
    // would be next, but it holds the second: 10.100/16 holds the first too; all taken.
    assertEquals(
        "10.96.0.0/12",
        KubeadmNetwork.first(
            KubeadmNetwork.SERVICE_CANDIDATES,
            List.of("10.100.3.4", "172.20.0.9"),
            List.of("10.244.0.0/16")));
  }

  @Test
  void aClashIsNamed() {
    KubeadmNetwork n =
        new KubeadmNetwork(
            "10.244.0.0/16", "10.96.0.0/12", List.of("10.96.1.2"), List.of("10.244.0.0/20"));
    assertEquals(
        List.of(
            "the pod network 10.244.0.0/16 overlaps 10.244.0.0/20",
            "the Service network 10.96.0.0/12 holds host address 10.96.1.2"),
        n.clashes());
  }
}

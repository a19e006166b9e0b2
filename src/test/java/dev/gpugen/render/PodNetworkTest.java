package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** kubeadm's pod network keeps clear of the hosts' own addresses. */
class PodNetworkTest {
  @Test
  void theFirstCandidateHoldingNoHostIsTaken() {
    assertEquals("10.244.0.0/16", PodNetwork.cidr(List.of("10.40.0.5", "10.40.0.11")));
    assertEquals("192.168.0.0/16", PodNetwork.cidr(List.of("10.244.0.5", "gpu-1.lab")));
    assertEquals("172.16.0.0/16", PodNetwork.cidr(List.of("10.244.3.4", "192.168.1.20")));
    // Hosts in all three: the first, as docs/kubernetes.md says.
    assertEquals(
        "10.244.0.0/16", PodNetwork.cidr(List.of("10.244.0.1", "192.168.0.1", "172.16.9.9")));
  }

  /** On AWS the VPC and subnet networks are avoided, whichever holds the other. */
  @Test
  void aCandidateOverlappingANetworkIsSkipped() {
    assertEquals("10.244.0.0/16", PodNetwork.cidrAvoiding(List.of(), List.of("10.0.0.0/16")));
    assertEquals("192.168.0.0/16", PodNetwork.cidrAvoiding(List.of(), List.of("10.0.0.0/8")));
    assertEquals("192.168.0.0/16", PodNetwork.cidrAvoiding(List.of(), List.of("10.244.16.0/20")));
    assertEquals(
        "172.16.0.0/16",
        PodNetwork.cidrAvoiding(List.of(), List.of("10.244.0.0/14", "192.168.128.0/17")));
  }

  @Test
  void onlyLiteralIpv4AddressesAreCompared() {
    assertTrue(PodNetwork.contains("10.244.0.0/16", "10.244.255.255"));
    assertFalse(PodNetwork.contains("10.244.0.0/16", "10.245.0.0"));
    assertFalse(PodNetwork.contains("10.244.0.0/16", "10.244.0.1.example.com"));
    assertFalse(PodNetwork.contains("10.244.0.0/16", "fd00::10:244:0:1"));
    assertFalse(PodNetwork.contains("192.168.0.0/16", "192.168.0.256"));
  }
}

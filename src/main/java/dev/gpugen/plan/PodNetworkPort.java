package dev.gpugen.plan;

import dev.gpugen.spec.Cni;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A port the pod network uses between the hosts of a kubeadm cluster, as gpugen configures its CNI
 * (the Helm values of the Ansible role {@code kubeadm}, which name the same tunnel): what the
 * control plane's and the GPU nodes' security groups open to each other (the nodes already allow
 * all traffic among themselves).
 *
 * @param protocol {@code tcp}, {@code udp}, {@code icmp} or an IP protocol number ({@code 4},
 *     IP-in-IP)
 * @param from the first port, or the ICMP type; empty for a protocol without ports
 * @param to the last port, or the ICMP code; empty for a protocol without ports
 */
public record PodNetworkPort(String protocol, Optional<Integer> from, Optional<Integer> to) {

  /**
   * The CNI's ports between hosts, by a name for each.
   *
   * <p>Cilium in tunnel mode with VXLAN (the chart's default routing): UDP 8472 for the overlay,
   * TCP 4240 and ICMP echo (type 8, code 0) for cilium-health, the minimum security group rules of
   * Cilium's own AWS example
   * (https://docs.cilium.io/en/stable/operations/system_requirements/#firewall-rules; cilium/cilium
   * Documentation/operations/system_requirements.rst).
   *
   * <p>Calico with BGP and IP-in-IP (the operator's default encapsulation, tigera/operator
   * api/v1/installation_types.go: "Encapsulation ... Default: IPIP"): TCP 179 for BGP and IP
   * protocol 4 between all hosts, TCP 5473 to the hosts Typha runs on, which may be any
   * (https://docs.tigera.io/calico/latest/getting-started/kubernetes/requirements#network-requirements).
   */
  public static SortedMap<String, PodNetworkPort> of(Cni cni) {
    SortedMap<String, PodNetworkPort> out = new TreeMap<>();
    switch (cni) {
      case CILIUM -> {
        out.put("vxlan", ports("udp", 8472, 8472));
        out.put("health", ports("tcp", 4240, 4240));
        out.put("health-icmp", ports("icmp", 8, 0));
      }
      case CALICO -> {
        out.put("bgp", ports("tcp", 179, 179));
        out.put("ipip", new PodNetworkPort("4", Optional.empty(), Optional.empty()));
        out.put("typha", ports("tcp", 5473, 5473));
      }
    }
    return Collections.unmodifiableSortedMap(out);
  }

  private static PodNetworkPort ports(String protocol, int from, int to) {
    return new PodNetworkPort(protocol, Optional.of(from), Optional.of(to));
  }
}

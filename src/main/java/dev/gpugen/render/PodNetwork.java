package dev.gpugen.render;

import dev.gpugen.spec.Cidr;
import java.util.List;

/**
 * The pod network kubeadm init gives the cluster ({@code --pod-network-cidr}): the node podCIDRs
 * kube-controller-manager allocates from it are what Cilium (ipam.mode kubernetes) and Calico (the
 * Installation's IP pool) hand out. Pod addresses must not overlap the hosts' own network, so the
 * first candidate that holds none of the spec's literal IPv4 addresses is taken (host names cannot
 * be checked here). Sources: https://kubernetes.io/docs/reference/setup-tools/kubeadm/kubeadm-init/
 * (--pod-network-cidr), https://docs.cilium.io/en/stable/network/concepts/ipam/kubernetes/ ,
 * https://docs.tigera.io/calico/latest/networking/ipam/initial-ippool (the default 192.168.0.0/16).
 */
final class PodNetwork {
  private PodNetwork() {}

  /**
   * Candidates in order: flannel's and many guides' 10.244/16, Calico's default, then 172.16/16.
   */
  static final List<String> CANDIDATES =
      List.of("10.244.0.0/16", "192.168.0.0/16", "172.16.0.0/16");

  static String cidr(List<String> addresses) {
    for (String c : CANDIDATES) {
      if (addresses.stream().noneMatch(a -> contains(c, a))) {
        return c;
      }
    }
    // Every candidate holds a host: the hosts span them all; the first one is as good as any and
    // docs/kubernetes.md says how to choose another.
    return CANDIDATES.get(0);
  }

  /**
   * The first candidate that holds none of {@code addresses} and overlaps none of {@code networks}
   * (CIDRs: on AWS the VPC's and the subnet's, whose addresses the nodes and the load balancer
   * take); the first candidate if all are taken.
   */
  static String cidrAvoiding(List<String> addresses, List<String> networks) {
    for (String c : CANDIDATES) {
      Cidr candidate = Cidr.parse(c);
      if (addresses.stream().noneMatch(a -> contains(c, a))
          && networks.stream()
              .map(Cidr::parse)
              .noneMatch(n -> n.contains(candidate) || candidate.contains(n))) {
        return c;
      }
    }
    return CANDIDATES.get(0);
  }

  /** Whether IPv4 {@code address} lies in {@code cidr}; false for anything that is no IPv4. */
  static boolean contains(String cidr, String address) {
    long a = ipv4(address);
    return a >= 0 && Cidr.parse(cidr).contains(new Cidr(a, 32));
  }

  private static long ipv4(String s) {
    String[] o = s.split("\\.", -1);
    if (o.length != 4) {
      return -1;
    }
    long v = 0;
    for (String part : o) {
      if (!part.matches("[0-9]{1,3}")) {
        return -1;
      }
      int n = Integer.parseInt(part);
      if (n > 255) {
        return -1;
      }
      v = (v << 8) | n;
    }
    return v;
  }
}

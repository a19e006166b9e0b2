package dev.gpugen.plan;

import dev.gpugen.spec.Cidr;
import dev.gpugen.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The address ranges kubeadm init gives a cluster gpugen bootstraps: the pod network ({@code
 * --pod-network-cidr}; the node podCIDRs kube-controller-manager allocates from it are what Cilium,
 * ipam.mode kubernetes, and Calico, the Installation's IP pool, hand out) and the Service network
 * ({@code --service-cidr}, kubeadm's default 10.96.0.0/12). Neither may overlap the hosts' own
 * network nor the other: a Service address inside the VPC or a pod range is routed to the wrong
 * place. Each is the first of its candidates that holds none of the spec's literal IPv4 host
 * addresses and overlaps none of its networks (on AWS the VPC's and the subnet's); the linter
 * reports a clash when every candidate is taken ({@code k8s-network-overlap}). Host names cannot be
 * checked here.
 *
 * <p>Sources: https://kubernetes.io/docs/reference/setup-tools/kubeadm/kubeadm-init/
 * (--pod-network-cidr, --service-cidr "Default: 10.96.0.0/12"),
 * https://docs.cilium.io/en/stable/network/concepts/ipam/kubernetes/ ,
 * https://docs.tigera.io/calico/latest/networking/ipam/initial-ippool (the default 192.168.0.0/16).
 *
 * @param podCidr the pod network
 * @param serviceCidr the Service network
 * @param addresses the literal IPv4 host addresses both must avoid
 * @param networks the networks (CIDRs) both must avoid
 */
public record KubeadmNetwork(
    String podCidr, String serviceCidr, List<String> addresses, List<String> networks) {

  public KubeadmNetwork {
    addresses = List.copyOf(addresses);
    networks = List.copyOf(networks);
  }

  /**
   * Pod network candidates in order: flannel's and many guides' 10.244/16, Calico's default, then
   * 172.16/16.
   */
  static final List<String> POD_CANDIDATES =
      List.of("10.244.0.0/16", "192.168.0.0/16", "172.16.0.0/16");

  /**
   * Service network candidates in order: kubeadm's default, the range EKS gives a cluster in a 10/8
   * VPC (https://docs.aws.amazon.com/eks/latest/userguide/create-cluster.html, "Configure
   * Kubernetes Service IP address range"), then 10.100/16, which also fits when only part of
   * 10.96/12 is taken.
   */
  static final List<String> SERVICE_CANDIDATES =
      List.of("10.96.0.0/12", "172.20.0.0/16", "10.100.0.0/16");

  /** The ranges of a kubeadm spec: its static hosts' addresses, or on AWS its VPC and subnet. */
  static KubeadmNetwork of(ClusterSpec spec) {
    List<String> addresses = new ArrayList<>();
    List<String> networks = new ArrayList<>();
    if (spec.cloud().provider() == dev.gpugen.spec.Provider.AWS) {
      spec.network().vpcCidr().ifPresent(networks::add);
      spec.network().subnetCidr().ifPresent(networks::add);
    } else {
      spec.pools().forEach(p -> p.hosts().forEach(h -> addresses.add(h.address())));
      spec.kubernetes()
          .ifPresent(k -> k.controlPlaneHosts().forEach(h -> addresses.add(h.address())));
    }
    String pod = first(POD_CANDIDATES, addresses, networks);
    List<String> withPod = new ArrayList<>(networks);
    withPod.add(pod);
    String service = first(SERVICE_CANDIDATES, addresses, withPod);
    return new KubeadmNetwork(pod, service, addresses, networks);
  }

  /** What each range clashes with, in words; empty when neither does. */
  public List<String> clashes() {
    List<String> out = new ArrayList<>();
    for (String[] range :
        List.of(new String[] {"pod", podCidr}, new String[] {"Service", serviceCidr})) {
      for (String a : addresses) {
        if (contains(range[1], a)) {
          out.add("the " + range[0] + " network " + range[1] + " holds host address " + a);
        }
      }
      for (String n : networks) {
        if (overlap(range[1], n)) {
          out.add("the " + range[0] + " network " + range[1] + " overlaps " + n);
        }
      }
    }
    if (overlap(podCidr, serviceCidr)) {
      out.add("the pod network " + podCidr + " overlaps the Service network " + serviceCidr);
    }
    return out;
  }

  /** The first candidate clear of {@code addresses} and {@code networks}; the first if none is. */
  static String first(List<String> candidates, List<String> addresses, List<String> networks) {
    for (String c : candidates) {
      if (addresses.stream().noneMatch(a -> contains(c, a))
          && networks.stream().noneMatch(n -> overlap(c, n))) {
        return c;
      }
    }
    // Every candidate is taken: the first, and the linter says so (k8s-network-overlap).
    return candidates.get(0);
  }

  static boolean overlap(String a, String b) {
    Cidr x = Cidr.parse(a);
    Cidr y = Cidr.parse(b);
    return x.contains(y) || y.contains(x);
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

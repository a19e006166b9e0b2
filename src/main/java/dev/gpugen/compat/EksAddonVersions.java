package dev.gpugen.compat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The exact Amazon EKS add-on versions gpugen installs on an EKS cluster, per Kubernetes minor: the
 * version each add-on's page of the Amazon EKS user guide lists as the latest of the EKS add-on
 * type for that minor. A snapshot of the editions named below; pinning them keeps a later {@code
 * terraform apply} from upgrading the CNI under running nodes, as EKS's default version for a minor
 * moves. A minor with no row for an add-on is refused by the linter unless the spec pins that
 * add-on (kubernetes.addons), so updating this class is how gpugen learns a newer build.
 */
public final class EksAddonVersions {
  private EksAddonVersions() {}

  /** The add-ons gpugen installs on every EKS cluster, with a row per minor below. */
  public static final List<String> CORE = List.of("coredns", "kube-proxy", "vpc-cni");

  /**
   * Every add-on the spec may pin: the core ones and the EKS Pod Identity Agent, which AWS lists no
   * per-minor version for, so gpugen installs it only at the version the spec names.
   */
  public static final List<String> PINNABLE =
      List.of("coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni");

  /** Where each add-on's versions are listed. */
  public static final Map<String, String> SOURCE =
      Map.of(
          "coredns",
          "https://docs.aws.amazon.com/eks/latest/userguide/managing-coredns.html#coredns-versions",
          "kube-proxy",
          "https://docs.aws.amazon.com/eks/latest/userguide/managing-kube-proxy.html#kube-proxy-versions",
          "vpc-cni",
          "https://docs.aws.amazon.com/eks/latest/userguide/managing-vpc-cni.html#vpc-cni-latest-available-version",
          "eks-pod-identity-agent",
          "https://docs.aws.amazon.com/eks/latest/userguide/pod-id-agent-setup.html");

  /**
   * minor -> add-on -> version. CoreDNS: the edition listing 1.28-1.34 (1.33 and 1.34
   * v1.12.4-eksbuild.1, 1.29-1.32 v1.11.4-eksbuild.24). kube-proxy: the edition listing 1.28-1.34
   * (also published as docs.amazonaws.cn/eks/latest/userguide/managing-kube-proxy.html). VPC CNI:
   * the edition listing 1.27-1.33, each at v1.20.1-eksbuild.3 (read in its ja_jp and ko_kr
   * translations of the same page); 1.34: v1.20.4-eksbuild.1, which the later edition at
   * https://docs.amazonaws.cn/en_us/eks/latest/userguide/pod-networking.html lists for 1.28-1.34
   * (the older minors keep the build they were first pinned to, so no re-render moves their CNI).
   * 1.35 has no row here yet: such a spec names its versions in kubernetes.addons. The rows are the
   * user guide's word only: its editions have listed builds EKS did not offer (later corrected in
   * awsdocs/amazon-eks-user-guide pull requests), so only {@code aws eks describe-addon-versions
   * --kubernetes-version MINOR --addon-name NAME} on a real account proves a row.
   */
  static final Map<String, Map<String, String>> ROWS =
      Map.of(
          "1.29",
          Map.of(
              "coredns", "v1.11.4-eksbuild.24",
              "kube-proxy", "v1.29.15-eksbuild.16",
              "vpc-cni", "v1.20.1-eksbuild.3"),
          "1.30",
          Map.of(
              "coredns", "v1.11.4-eksbuild.24",
              "kube-proxy", "v1.30.14-eksbuild.8",
              "vpc-cni", "v1.20.1-eksbuild.3"),
          "1.31",
          Map.of(
              "coredns", "v1.11.4-eksbuild.24",
              "kube-proxy", "v1.31.13-eksbuild.2",
              "vpc-cni", "v1.20.1-eksbuild.3"),
          "1.32",
          Map.of(
              "coredns", "v1.11.4-eksbuild.24",
              "kube-proxy", "v1.32.9-eksbuild.2",
              "vpc-cni", "v1.20.1-eksbuild.3"),
          "1.33",
          Map.of(
              "coredns", "v1.12.4-eksbuild.1",
              "kube-proxy", "v1.33.5-eksbuild.2",
              "vpc-cni", "v1.20.1-eksbuild.3"),
          "1.34",
          Map.of(
              "coredns", "v1.12.4-eksbuild.1",
              "kube-proxy", "v1.34.1-eksbuild.2",
              "vpc-cni", "v1.20.4-eksbuild.1"));

  /** The version the table gives {@code addon} on {@code minor}, if it has a row. */
  public static Optional<String> version(String addon, String minor) {
    return Optional.ofNullable(ROWS.getOrDefault(minor, Map.of()).get(addon));
  }

  /** The minors the table gives {@code addon} a version for, in order. */
  public static List<String> minors(String addon) {
    return ROWS.entrySet().stream()
        .filter(e -> e.getValue().containsKey(addon))
        .map(Map.Entry::getKey)
        .sorted(java.util.Comparator.comparingInt(KubernetesSupport::minorNumber))
        .toList();
  }
}

package dev.gpugen.compat;

import dev.gpugen.spec.Distribution;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which Kubernetes minors each distribution gpugen renders for supports, and which minors the GPU
 * Operator releases were validated on. A snapshot of the public pages below, read in January 2026;
 * a minor outside these lists is refused (eks, kubeadm) or flagged (GPU Operator), so updating this
 * class is how gpugen learns about a new minor.
 */
public final class KubernetesSupport {
  private KubernetesSupport() {}

  /**
   * Minors Amazon EKS runs, in standard or extended support (14 + 12 months after each release on
   * EKS; 1.29's extended support ends 2026-03-23, 1.35 was released on EKS 2026-01-28).
   */
  public static final String EKS_SOURCE =
      "https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html";

  static final List<String> EKS = List.of("1.29", "1.30", "1.31", "1.32", "1.33", "1.34", "1.35");

  /**
   * Minors kubeadm bootstraps from the Kubernetes project's package repository (pkgs.k8s.io, one
   * repository per minor). The project maintains the last three minors; 1.32 is included while its
   * patch releases continue.
   */
  public static final String KUBEADM_SOURCE =
      "https://kubernetes.io/releases/ ,"
          + " https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/install-kubeadm/";

  static final List<String> KUBEADM = List.of("1.32", "1.33", "1.34", "1.35");

  /** Where the GPU Operator's validated Kubernetes minors are listed. */
  public static final String OPERATOR_SOURCE =
      "https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/platform-support.html"
          + " (Supported Operating Systems and Kubernetes Platforms; source"
          + " NVIDIA/cloud-native-docs gpu-operator/platform-support.rst) ,"
          + " https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/release-notes.html";

  /**
   * Validated Kubernetes minors per GPU Operator major release (YY.MM), for Ubuntu 22.04/24.04:
   * 25.3.x lists 1.29-1.33; 26.3.2's release notes add 1.36 to the 26.3 line. Majors not listed
   * here are unknown to gpugen (no finding).
   */
  static final Map<String, MinorRange> OPERATOR =
      Map.of(
          "25.3", new MinorRange(29, 33),
          "26.3", new MinorRange(29, 36));

  /** An inclusive range of 1.x minors. */
  public record MinorRange(int first, int last) {
    public boolean contains(String minor) {
      int m = minorNumber(minor);
      return m >= first && m <= last;
    }

    @Override
    public String toString() {
      return "1." + first + "-1." + last;
    }
  }

  /** The minors {@code distribution} supports; empty for existing (whatever the cluster runs). */
  public static List<String> minors(Distribution distribution) {
    return switch (distribution) {
      case EKS -> KubernetesSupport.EKS;
      case KUBEADM -> KubernetesSupport.KUBEADM;
      case EXISTING -> List.of();
    };
  }

  /** The source of {@link #minors}'s answer for {@code distribution}. */
  public static String source(Distribution distribution) {
    return distribution == Distribution.EKS ? EKS_SOURCE : KUBEADM_SOURCE;
  }

  /**
   * The Kubernetes minors GPU Operator {@code chartVersion} (v25.3.1) was validated on, when gpugen
   * knows them.
   */
  public static Optional<MinorRange> operatorRange(String chartVersion) {
    String[] parts = chartVersion.replaceFirst("^v", "").split("\\.");
    if (parts.length < 2) {
      return Optional.empty();
    }
    return Optional.ofNullable(OPERATOR.get(parts[0] + "." + parts[1]));
  }

  /** 33 for "1.33". */
  static int minorNumber(String minor) {
    return Integer.parseInt(minor.substring(minor.indexOf('.') + 1));
  }
}

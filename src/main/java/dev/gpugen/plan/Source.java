package dev.gpugen.plan;

/**
 * A public source the rendered node plays download from, and the {@code mirrors:} key that replaces
 * it. The upstreams are the ones the static role defaults name (the roles keep them when no mirror
 * is set).
 */
public enum Source {
  /**
   * Ubuntu's archive: the image's own apt sources (Canonical's EC2 images use the regional
   * REGION.ec2.archive.ubuntu.com and security.ubuntu.com; archive.ubuntu.com carries the -security
   * pocket too, https://help.ubuntu.com/community/Repositories/Ubuntu).
   */
  UBUNTU("ubuntu", "http://archive.ubuntu.com/ubuntu (the image's apt sources)"),
  /** NVIDIA's CUDA repository: driver, toolkit, Fabric Manager, DCGM, cuda-keyring (play 01). */
  CUDA("cuda", "https://developer.download.nvidia.com/compute/cuda/repos"),
  /** The NVIDIA Container Toolkit's apt repository and its key (play 02). */
  NVIDIA_CONTAINER_TOOLKIT(
      "nvidiaContainerToolkit", "https://nvidia.github.io/libnvidia-container"),
  /** pkgs.k8s.io: kubelet, kubeadm, kubectl and each minor's Release.key (play 02b). */
  KUBERNETES("kubernetes", "https://pkgs.k8s.io"),
  /** AWS's FSx Lustre client repository (play 00, storage.lustre). */
  LUSTRE("lustre", "https://fsx-lustre-client-repo.s3.amazonaws.com"),
  /**
   * Single files: the EFA installer and the GDRCopy source tarball (play 04, EFA pools) and the FSx
   * repository's signing key (play 00, storage.lustre).
   */
  FILES(
      "files",
      "https://efa-installer.amazonaws.com, https://github.com/NVIDIA/gdrcopy/archive and"
          + " https://fsx-lustre-client-repo-public-keys.s3.amazonaws.com"),
  /** The Git repositories play 05 builds its tools from. */
  GIT("git", "https://github.com/wilicc/gpu-burn.git and https://github.com/NVIDIA/nccl-tests.git"),
  /** NVIDIA's Helm repository: the GPU Operator chart (play 03, or ArgoCD's Application). */
  HELM_GPU_OPERATOR("helm.gpuOperator", "https://helm.ngc.nvidia.com/nvidia"),
  /** AWS's eks-charts: the EFA device plugin chart (play 04, EFA pools). */
  HELM_EKS_CHARTS("helm.eksCharts", "https://aws.github.io/eks-charts"),
  /** Cilium's Helm repository (play 02b, kubeadm with cni cilium). */
  HELM_CILIUM("helm.cilium", "https://helm.cilium.io"),
  /** Calico's tigera-operator chart (play 02b, kubeadm with cni calico). */
  HELM_TIGERA("helm.tigera", "https://docs.tigera.io/calico/charts");

  private final String key;
  private final String upstream;

  Source(String key, String upstream) {
    this.key = key;
    this.upstream = upstream;
  }

  /** The key under {@code mirrors:} in the spec, dotted below it ({@code helm.cilium}). */
  public String key() {
    return key;
  }

  /** The spec path of the key: {@code mirrors} then each part of {@link #key()}. */
  public dev.gpugen.spec.SpecPath path() {
    dev.gpugen.spec.SpecPath p = dev.gpugen.spec.SpecPath.of("mirrors");
    for (String part : key.split("\\.")) {
      p = p.key(part);
    }
    return p;
  }

  /** What the mirror stands in for, as the linter names it. */
  public String upstream() {
    return upstream;
  }
}

package dev.gpugen.plan;

import dev.gpugen.spec.ClusterSpec;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where the node plays download from: which {@link Source}s the render uses, the mirror set for
 * each (normalised: no trailing '/'), and the container registries. The one definition the linter,
 * the views and the docs read.
 *
 * @param used the sources the rendered plays (and ArgoCD's Applications) reach, given the spec
 * @param mirrors the spec's mirrors, by source
 * @param containerd whether gpugen configures the nodes' containerd (AWS and static hosts; not
 *     GKE), so that registry mirrors take effect
 * @param registries the registries the images of what the render deploys come from (the GPU
 *     Operator, the EFA device plugin): each needs a mirror when the nodes cannot reach it
 * @param registryMirrors the spec's registry mirrors, by registry (normalised: no trailing '/')
 */
public record Sources(
    Set<Source> used,
    Map<Source, String> mirrors,
    boolean containerd,
    SortedSet<String> registries,
    SortedMap<String, String> registryMirrors) {

  /**
   * The GPU Operator's images (operator, device plugin, DCGM exporter, feature discovery,
   * validator) come from nvcr.io/nvidia (GPU Operator docs, "Install in air-gapped environments":
   * https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/install-gpu-operator-air-gapped.html);
   * its node-feature-discovery subchart's from registry.k8s.io/nfd, which is also where
   * containerd's default sandbox (pause) image is.
   */
  static final Set<String> OPERATOR_REGISTRIES = Set.of("nvcr.io", "registry.k8s.io");

  /**
   * The EFA device plugin chart's image: 602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/
   * aws-efa-k8s-device-plugin (eks-charts, stable/aws-efa-k8s-device-plugin/values.yaml,
   * https://github.com/aws/eks-charts/blob/master/stable/aws-efa-k8s-device-plugin/values.yaml): an
   * ECR registry in us-west-2, which a VPC's ECR endpoints (regional) do not reach from elsewhere.
   */
  static final String EFA_PLUGIN_REGISTRY = "602401143452.dkr.ecr.us-west-2.amazonaws.com";

  public Sources {
    used =
        Collections.unmodifiableSet(
            used.isEmpty() ? EnumSet.noneOf(Source.class) : EnumSet.copyOf(used));
    mirrors =
        Collections.unmodifiableMap(
            mirrors.isEmpty() ? new EnumMap<>(Source.class) : new EnumMap<>(mirrors));
    registries = Collections.unmodifiableSortedSet(new TreeSet<>(registries));
    registryMirrors = Collections.unmodifiableSortedMap(new TreeMap<>(registryMirrors));
  }

  /**
   * @param nodeTree whether the render has the node plays (AWS, static)
   * @param kubeadm whether play 02b bootstraps the cluster
   * @param lustre whether the nodes mount FSx for Lustre
   * @param efa whether some pool's fabric is EFA
   */
  static Sources of(
      ClusterSpec spec, boolean nodeTree, boolean kubeadm, boolean lustre, boolean efa) {
    EnumSet<Source> used = EnumSet.noneOf(Source.class);
    TreeSet<String> registries = new TreeSet<>();
    if (nodeTree) {
      used.addAll(
          EnumSet.of(Source.UBUNTU, Source.CUDA, Source.NVIDIA_CONTAINER_TOOLKIT, Source.GIT));
      if (kubeadm) {
        used.add(Source.KUBERNETES);
        dev.gpugen.spec.Cni cni = spec.kubernetes().orElseThrow().cni();
        used.add(cni == dev.gpugen.spec.Cni.CALICO ? Source.HELM_TIGERA : Source.HELM_CILIUM);
      }
      if (lustre) {
        used.add(Source.LUSTRE);
      }
      if (lustre || efa) {
        used.add(Source.FILES);
      }
      if (spec.kubernetes().isPresent()) {
        // Play 03 installs the chart, or ArgoCD does from its Application (gitops).
        used.add(Source.HELM_GPU_OPERATOR);
        registries.addAll(OPERATOR_REGISTRIES);
        if (efa && spec.gitops().isEmpty()) {
          used.add(Source.HELM_EKS_CHARTS);
          // In us-west-2 an EKS cluster's ECR endpoints reach it (ClusterPlan's endpoints).
          boolean ecrEndpoints =
              spec.kubernetes().get().eks()
                  && spec.cloud().region().filter(r -> r.equals("us-west-2")).isPresent();
          if (!ecrEndpoints) {
            registries.add(EFA_PLUGIN_REGISTRY);
          }
        }
      }
    }
    ClusterSpec.Mirrors m = spec.mirrors();
    EnumMap<Source, String> mirrors = new EnumMap<>(Source.class);
    put(mirrors, Source.UBUNTU, m.ubuntu());
    put(mirrors, Source.CUDA, m.cuda());
    put(mirrors, Source.NVIDIA_CONTAINER_TOOLKIT, m.nvidiaContainerToolkit());
    put(mirrors, Source.KUBERNETES, m.kubernetes());
    put(mirrors, Source.LUSTRE, m.lustre());
    put(mirrors, Source.FILES, m.files());
    put(mirrors, Source.GIT, m.git());
    put(mirrors, Source.HELM_GPU_OPERATOR, m.helmGpuOperator());
    put(mirrors, Source.HELM_EKS_CHARTS, m.helmEksCharts());
    put(mirrors, Source.HELM_CILIUM, m.helmCilium());
    put(mirrors, Source.HELM_TIGERA, m.helmTigera());
    TreeMap<String, String> registryMirrors = new TreeMap<>();
    m.registries().forEach((r, u) -> registryMirrors.put(r, trim(u)));
    return new Sources(used, mirrors, nodeTree, registries, registryMirrors);
  }

  private static void put(Map<Source, String> out, Source s, Optional<String> url) {
    url.ifPresent(u -> out.put(s, trim(u)));
  }

  private static String trim(String url) {
    return url.replaceFirst("/+$", "");
  }

  /** The mirror of {@code s}, without a trailing '/'; empty: the public upstream. */
  public Optional<String> mirror(Source s) {
    return Optional.ofNullable(mirrors.get(s));
  }

  /** The mirror of {@code s} when the render uses it, else "" (group_vars set nothing then). */
  public String usedMirror(Source s) {
    return used.contains(s) ? mirrors.getOrDefault(s, "") : "";
  }

  /** The registry mirrors containerd gets: the spec's, where gpugen configures containerd. */
  public SortedMap<String, String> usedRegistryMirrors() {
    return containerd ? registryMirrors : Collections.emptySortedMap();
  }
}

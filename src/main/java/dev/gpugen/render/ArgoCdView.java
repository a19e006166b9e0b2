package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the argocd/ templates and play 03 need when the spec hands the cluster-side components to
 * ArgoCD ({@code gitops.argocd}): one Application per component, in sync-wave order, and the root
 * Application that creates them (app of apps). Everything is empty when GitOps is off, so the
 * argocd/ templates render blank and write no file.
 */
public final class ArgoCdView {
  /** The NVIDIA Helm repository the chart comes from, as play 03 adds it. */
  public static final String CHART_REPO = "https://helm.ngc.nvidia.com/nvidia";

  /** Where the root Application creates the others: the cluster ArgoCD itself runs in. */
  public static final String IN_CLUSTER = "https://kubernetes.default.svc";

  private final ClusterPlan plan;
  private final ClusterSpec spec;

  ArgoCdView(ClusterPlan plan) {
    this.plan = plan;
    this.spec = plan.spec();
  }

  /**
   * One Application.
   *
   * @param name the Application's name (cluster, environment, component)
   * @param component the component, also the file name under apps/ and manifests/
   * @param wave the sync wave: configuration (0) before the operator that reads it (1)
   * @param namespace the destination namespace
   * @param path the manifests' folder in the Git repository (directory Applications)
   */
  public record App(String name, String component, int wave, String namespace, String path) {}

  public boolean enabled() {
    return spec.gitops().isPresent();
  }

  private ClusterSpec.ArgoCd argo() {
    return spec.gitops().orElseThrow().argocd();
  }

  public String namespace() {
    return enabled() ? argo().namespace() : "";
  }

  public String project() {
    return argo().project();
  }

  public String server() {
    return argo().server();
  }

  public String inCluster() {
    return IN_CLUSTER;
  }

  public String repoUrl() {
    return argo().repoUrl();
  }

  public String targetRevision() {
    return argo().targetRevision();
  }

  public boolean automated() {
    return argo().automated();
  }

  /** The folder of the Application manifests the root Application syncs. */
  public String appsPath() {
    return argo().path() + "/apps";
  }

  public String cluster() {
    return spec.metadata().name();
  }

  public String environment() {
    return spec.metadata().environment().orElse("");
  }

  /** The root Application, {@code <cluster>[-<env>]-gpugen}. */
  public String rootName() {
    return prefix() + "-gpugen";
  }

  /** Whether ArgoCD installs the GPU Operator (not on GKE when GKE installs the driver). */
  public boolean operator() {
    return enabled() && plan.gkeOperatorDriver();
  }

  /** Whether ArgoCD also writes /etc/nccl.conf on the nodes (GKE: a DaemonSet; else play 04). */
  public boolean ncclDaemonSet() {
    return enabled() && plan.gke();
  }

  public App gpuOperator() {
    return new App(prefix() + "-gpu-operator", "gpu-operator", 1, GpuOperatorValues.NAMESPACE, "");
  }

  public App devicePluginConfig() {
    return directory("device-plugin-config", GpuOperatorValues.NAMESPACE);
  }

  public App ncclConfig() {
    return directory("nccl-config", "kube-system");
  }

  /** The Applications gpugen renders, in sync-wave order; play 03 checks each of them. */
  public List<App> apps() {
    List<App> out = new ArrayList<>();
    if (!enabled()) {
      return out;
    }
    if (timeSlicing()) {
      out.add(devicePluginConfig());
    }
    out.add(ncclConfig());
    if (operator()) {
      out.add(gpuOperator());
    }
    return out;
  }

  /** The names play 03 waits for, the root Application first. */
  public List<String> applicationNames() {
    List<String> out = new ArrayList<>();
    if (enabled()) {
      out.add(rootName());
      apps().forEach(a -> out.add(a.name()));
    }
    return out;
  }

  public boolean timeSlicing() {
    return operator() && GpuOperatorValues.timeSlicing(plan);
  }

  public String operatorVersion() {
    return spec.software().gpuOperator().version();
  }

  /** NVIDIA's Helm repository, or the spec's mirror of it (mirrors.helm.gpuOperator). */
  public String chartRepo() {
    return plan.sources().mirror(dev.gpugen.plan.Source.HELM_GPU_OPERATOR).orElse(CHART_REPO);
  }

  public Map<String, Object> operatorValues() {
    return GpuOperatorValues.of(plan);
  }

  public String timeSlicingConfigName() {
    return GpuOperatorValues.TIME_SLICING_CONFIG;
  }

  /** The device plugin's configs by ConfigMap key (see GpuOperatorValues). */
  public List<AnsibleView.Entry> devicePluginConfigs() {
    List<AnsibleView.Entry> out = new ArrayList<>();
    GpuOperatorValues.devicePluginConfigs(plan)
        .forEach((k, v) -> out.add(new AnsibleView.Entry(k, v)));
    return out;
  }

  /** /etc/nccl.conf as NCCL reads it: sorted NAME=VALUE lines. */
  public String ncclConf() {
    return plan.ncclConf();
  }

  /** The checksum annotation that rolls the NCCL DaemonSet when the settings change. */
  public String ncclConfSha256() {
    return plan.ncclConfSha256();
  }

  private App directory(String component, String namespace) {
    return new App(
        prefix() + "-" + component,
        component,
        0,
        namespace,
        argo().path() + "/manifests/" + component);
  }

  private String prefix() {
    return plan.qualifiedName();
  }
}

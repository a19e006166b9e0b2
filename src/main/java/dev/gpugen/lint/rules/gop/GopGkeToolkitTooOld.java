package dev.gpugen.lint.rules.gop;

import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * On GKE the GPU Operator's toolkit container must read containerd's configuration from its file,
 * which only toolkit 1.18.0 and later can be told to do.
 */
public final class GopGkeToolkitTooOld extends Rule {
  public GopGkeToolkitTooOld() {
    super(
        "gop-gke-toolkit-too-old",
        Severity.ERROR,
        "the GPU Operator's Container Toolkit breaks pod networking on GKE 1.33+",
        "GKE 1.33 and later run containerd 2. NVIDIA's toolkit container, which the GPU Operator"
            + " runs on every GPU node, reads containerd's configuration with `containerd config"
            + " dump` unless told to read the file (RUNTIME_CONFIG_SOURCE=file, which gpugen sets"
            + " on GKE, as NVIDIA's \"GPU Operator with Google GKE\" guide says); it then writes"
            + " back a CNI section that points at /etc/cni/net.d and /opt/cni/bin, and every new"
            + " pod on the node fails with `failed to find plugin \"gke\" in path [/opt/cni/bin]`."
            + " The setting is read only from Container Toolkit 1.18.0 on (its installer's"
            + " --config-source flag); the 1.17.x toolkit that GPU Operator v25.3.x ships ignores"
            + " it. gpugen gives the operator software.containerToolkit as its toolkit.version, so"
            + " on GKE with gpuDriver operator that version must be 1.18.0 or later (1.18.1, which"
            + " GPU Operator v25.10.1 ships, fixes 1.18.0's known issue). Sources:"
            + " https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/google-gke.html ,"
            + " https://github.com/NVIDIA/nvidia-container-toolkit/issues/1222 ,"
            + " https://github.com/NVIDIA/gpu-operator/issues/1577 ,"
            + " https://github.com/NVIDIA/nvidia-container-toolkit/blob/v1.18.0/cmd/nvidia-ctk-installer/container/runtime/runtime.go");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (!plan.gke() || !plan.gkeOperatorDriver()) {
      return;
    }
    Version since = plan.compat().containerToolkitRuntimeConfigSourceSince();
    Version toolkit = Version.parse(plan.spec().software().containerToolkit());
    if (toolkit.compareTo(since) >= 0) {
      return;
    }
    String operator = plan.spec().software().gpuOperator().version();
    findings.report(
        SpecPath.of("software", "containerToolkit"),
        "software.containerToolkit "
            + toolkit
            + " is the GPU Operator's toolkit on GKE, and toolkits before "
            + since
            + " ignore RUNTIME_CONFIG_SOURCE=file: on GKE 1.33+ new pods fail with `failed to find"
            + " plugin \"gke\"`",
        "set software.containerToolkit: \"1.18.1\" and software.gpuOperator.version: v25.10.1"
            + " (the toolkit it ships"
            + (operator.equals("v25.10.1") ? "" : "; " + operator + " is older")
            + ")");
  }
}

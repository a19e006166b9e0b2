package dev.gpugen.lint.rules.efa;

import dev.gpugen.compat.EfaDevicePluginChart;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;

/** An EFA pool whose instance type the pinned EFA device plugin chart does not schedule on. */
public final class EfaDevicePluginUnscheduled extends PoolRule {
  public EfaDevicePluginUnscheduled() {
    super(
        "efa-device-plugin-unscheduled",
        Severity.ERROR,
        "the EFA device plugin gpugen installs does not run on the pool's instance type",
        "Pods reach EFA only through the vpc.amazonaws.com/efa resource of AWS's EFA device plugin,"
            + " which play 03 installs from its pinned eks-charts chart. The chart's DaemonSet has"
            + " node affinity to a fixed list of instance types (supportedInstanceLabels in the"
            + " chart's values.yaml): on any other type the plugin never starts, the nodes advertise"
            + " no EFA devices, play 05's scheduler check fails and NCCL in pods falls back to TCP"
            + " (chart v0.5.20, for example, listed neither p5.4xlarge nor p6-b300.48xlarge). Use an"
            + " instance type the chart lists, or fabric: tcp for the pool. Sources:"
            + " https://github.com/aws/eks-charts/blob/master/stable/aws-efa-k8s-device-plugin/values.yaml ,"
            + " https://github.com/aws/eks-charts/blob/master/stable/aws-efa-k8s-device-plugin/templates/daemonset.yaml");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    EfaDevicePluginChart chart = p.table().efaDevicePlugin();
    String type = p.pool().instanceType();
    if (p.spec().cloud().provider() != Provider.AWS
        || p.pool().fabric() != Fabric.EFA
        || p.spec().kubernetes().isEmpty()
        || !p.table().efaSupported(type)
        || chart.schedulesOn(type)) {
      return;
    }
    findings.report(
        p.path("instanceType"),
        p.describe()
            + " is not among the instance types the EFA device plugin chart "
            + chart.chartVersion()
            + " schedules on, so its nodes would advertise no vpc.amazonaws.com/efa",
        "use an instance type the chart lists (aws-efa-k8s-device-plugin "
            + chart.chartVersion()
            + " values.yaml), or fabric: tcp for the pool");
  }
}

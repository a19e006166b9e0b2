package dev.gpugen.plan;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.GpuModel;
import dev.gpugen.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code gpugen plan} prints: the resolved spec and every fact the plan derives from it, as
 * JSON data (maps sorted by key, pools and nodes in spec order). A reviewer sees what a key change
 * means here before reading the regenerated files; every value is read from {@link ClusterPlan} and
 * {@link PoolPlan}, never computed again.
 */
public final class PlanView {
  /** Bumped when a key is renamed or removed (adding one is compatible). */
  public static final int FORMAT = 1;

  private PlanView() {}

  /** The plan as JSON data. */
  public static Map<String, Object> of(ClusterPlan plan) {
    Map<String, Object> out = new TreeMap<>();
    out.put("format", FORMAT);
    out.put("spec", Canonical.tree(plan.spec()));
    out.put("cluster", cluster(plan));
    List<Object> pools = new ArrayList<>();
    plan.pools().forEach(p -> pools.add(pool(plan, p)));
    out.put("pools", pools);
    return out;
  }

  private static Map<String, Object> cluster(ClusterPlan plan) {
    Map<String, Object> c = new TreeMap<>();
    c.put("qualifiedName", plan.qualifiedName());
    c.put("provider", Canonical.tree(plan.provider()));
    c.put("fingerprint", plan.fingerprint());
    c.put("kubeadm", plan.kubeadm());
    c.put("efaPools", plan.efaPools());
    c.put("verbsPools", plan.verbsPools());
    c.put("rdmaDevicePlugin", plan.rdmaDevicePlugin());
    c.put("pullMode", plan.pullMode());
    c.put("ssmConnection", plan.ssmConnection());
    c.put("ssmBucketPrefix", Canonical.tree(plan.ssmBucketPrefix()));
    c.put("kernelModules", plan.clusterKernelModules());
    c.put("driverSource", driverSource(plan));
    c.put("gkeDriverInstallation", Canonical.tree(plan.gkeDriverInstallation()));
    c.put("driverBranch", driverBranch(plan, plan.spec().software()));
    c.put("driverCudaMajor", driverCudaMajor(plan, plan.spec().software()));
    c.put("ncclConf", plan.ncclConf());
    c.put("ncclConfSha256", plan.ncclConfSha256());
    c.put("vpcInterfaceEndpoints", plan.vpcInterfaceEndpoints());
    c.put("carvedSubnets", Canonical.tree(plan.carvedSubnets()));
    c.put("nodeSubnetUses", Canonical.tree(plan.nodeSubnetUses()));
    c.put("validationApplies", ValidationState.applies(plan));
    c.put("sources", Canonical.tree(plan.sources()));
    return c;
  }

  private static Map<String, Object> pool(ClusterPlan plan, PoolPlan p) {
    Map<String, Object> o = new TreeMap<>();
    o.put("name", p.name());
    o.put("group", p.group());
    o.put("fileIdentifier", p.tfPrefix());
    o.put("placementGroup", Canonical.tree(p.placementGroup()));
    o.put("launchTemplateNamePrefix", p.launchTemplateNamePrefix());
    o.put("nodes", Canonical.tree(p.nodes()));
    o.put("fabric", Canonical.tree(p.pool().fabric()));
    o.put("verbs", p.verbs());
    o.put("efaInterfaces", p.efaInterfaces());
    o.put("networkInterfaces", Canonical.tree(p.networkInterfaces()));
    o.put("hcaPorts", Canonical.tree(p.hcaPorts()));
    o.put("linkGbps", Canonical.tree(p.linkGbps()));
    o.put("fabricGBps", Canonical.tree(p.fabricGBps()));
    o.put("pinSocketIfname", p.pinSocketIfname());
    o.put("kernelModules", p.kernelModules());
    o.put("driverSource", driverSource(plan));
    o.put("driverBranch", driverBranch(plan, p.pool().software()));
    o.put("driverCudaMajor", driverCudaMajor(plan, p.pool().software()));
    o.put("timeSlicingReplicas", p.timeSlicingReplicas());
    o.put("allocatableGpus", p.allocatableGpus());
    o.put("minBusBandwidthGBps", Canonical.tree(p.minBusBandwidthGBps()));
    o.put("minMultiNodeBusBandwidthGBps", Canonical.tree(p.minMultiNodeBusBandwidthGbps()));
    o.put("allReduceGroup", p.allReduceGroup());
    o.put("capacityReservationId", Canonical.tree(p.capacityReservationId()));
    o.put("capacityBlock", p.capacityBlock());
    o.put("validationGates", ValidationState.gates(plan, p));
    o.put("hardware", hardware(p.hardware()));
    return o;
  }

  /**
   * Who chooses the nodes' driver: {@code gke} with {@code gpuDriver: gke}, else {@code
   * software.driver}. With GKE's choice the spec's driver branch means nothing, so the branch and
   * the CUDA major it runs are left out (null) rather than shown as if installed.
   */
  private static String driverSource(ClusterPlan plan) {
    return plan.gkeChoosesDriver() ? "gke" : "software.driver";
  }

  private static String driverBranch(ClusterPlan plan, ClusterSpec.Software s) {
    return plan.gkeChoosesDriver() ? null : ClusterPlan.driverBranch(s);
  }

  private static String driverCudaMajor(ClusterPlan plan, ClusterSpec.Software s) {
    return plan.gkeChoosesDriver() ? null : plan.driverCudaMajor(s);
  }

  private static Map<String, Object> hardware(Hardware h) {
    Map<String, Object> o = new TreeMap<>();
    o.put("instanceType", h.aws().map(AwsInstanceType::name).orElse(null));
    o.put("machineType", Canonical.tree(h.gcp().map(g -> g.name())));
    o.put("gpu", h.gpuName());
    o.put("gpus", h.gpus());
    o.put("architecture", Canonical.tree(h.gpu().map(GpuModel::architecture)));
    o.put("computeCapability", h.computeCapability());
    o.put("nvswitch", h.nvswitch());
    o.put("nvlinkSubnetManager", h.nvlinkSubnetManager());
    o.put("fabricStateReported", h.fabricStateReported());
    o.put("networkCards", h.networkCards());
    o.put("instanceStore", Canonical.tree(h.instanceStore()));
    o.put("defaultMinBusBandwidthGBps", Canonical.tree(h.defaultMinBusBandwidthGbps()));
    o.put("knownToTable", h.aws().isPresent() || h.gcp().isPresent() || h.gpu().isPresent());
    return o;
  }
}

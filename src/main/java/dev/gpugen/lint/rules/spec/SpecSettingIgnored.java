package dev.gpugen.lint.rules.spec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** A spec value the chosen target renders nowhere: it would silently do nothing. */
public final class SpecSettingIgnored extends Rule {
  public SpecSettingIgnored() {
    super(
        "spec-setting-ignored",
        Severity.WARNING,
        "the spec sets a value that the chosen target does not apply",
        "Some keys only mean something on some targets. On GKE (cloud.provider gcp) the nodes are"
            + " configured by GKE's node image, the node pools' Terraform and the GPU Operator;"
            + " gpugen renders no play that writes sysctls or blacklists nouveau there, so"
            + " kernel.sysctl and kernel.blacklistNouveau would do nothing (GKE sets node sysctls"
            + " through the node pool's linux_node_config, and its GPU node images ship without"
            + " nouveau). cloud.imds is an EC2 launch-template setting: GKE and static hosts have"
            + " no EC2 metadata options to set. network.placement creates EC2 placement groups"
            + " (GKE: compact placement); static hosts are placed already. A pool's tuning,"
            + " bootstrapInterface and rdma are host settings of the node plays, which GKE does not"
            + " get. A pool's capacityReservationId, market capacity-block and localNvme are EC2"
            + " settings (a Capacity Reservation, a Capacity Block, instance-store volumes);"
            + " a pool's reservation and markets flex-start and flex-start-queued are GKE's."
            + " On GKE one GPU Operator serves the cluster: a pool's own software.driver,"
            + " containerToolkit, kernelModules or gpuOperator would not reach its nodes; with"
            + " gpuDriver gke there is no GPU Operator at all, and software.containerToolkit,"
            + " kernelModules and gpuOperator do nothing (GKE's node image and device plugin"
            + " stand in for them; software.driver: gcp-driver-from-gke), while with gpuDriver"
            + " operator cloud.gke.gpuDriverVersion does nothing. GCP networks have no"
            + " address range of their own (network.vpcCidr): the node subnet is"
            + " network.subnetCidr, in a VPC gpugen creates with the cluster (network.vpcId and"
            + " subnetId name AWS VPCs). The version, release channel, upgrade hold and endpoint"
            + " settings of cloud.gke apply to a cluster gpugen creates, not to an existing one"
            + " (create: false). kubernetes.systemPool.autoscaling sets GKE's cluster autoscaler;"
            + " EKS's system pool is count instances."
            + " Sources:"
            + " https://cloud.google.com/kubernetes-engine/docs/how-to/node-system-config ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-options.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/placement-groups.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    Provider provider = plan.provider();
    if (provider == Provider.GCP) {
      ignored(
          findings,
          SpecPath.of("kernel", "sysctl"),
          "kernel.sysctl does nothing on GKE: no gpugen play configures GKE nodes' kernel",
          "remove it, and set node sysctls in the GKE node pool's linux_node_config");
      ignored(
          findings,
          SpecPath.of("kernel", "blacklistNouveau"),
          "kernel.blacklistNouveau does nothing on GKE: GKE's node image loads the driver",
          "remove it");
      gke(plan, findings);
      // Host settings of a pool: GKE gets no node plays.
      for (int i = 0; i < plan.pools().size(); i++) {
        for (String key : new String[] {"tuning", "bootstrapInterface", "rdma"}) {
          ignored(
              findings,
              SpecPath.of("pools", i).key(key),
              "pools["
                  + i
                  + "]."
                  + key
                  + " does nothing on GKE: no gpugen play configures GKE nodes",
              "remove it");
        }
      }
    }
    if (provider != Provider.AWS) {
      ignored(
          findings,
          SpecPath.of("cloud", "imds"),
          "cloud.imds does nothing on "
              + name(provider)
              + ": it sets EC2 instance metadata options",
          "remove it");
    }
    if (provider != Provider.AWS) {
      for (int i = 0; i < plan.spec().pools().size(); i++) {
        ClusterSpec.Pool pool = plan.spec().pools().get(i);
        ignored(
            findings,
            SpecPath.of("pools", i, "capacityReservationId"),
            "pools["
                + i
                + "].capacityReservationId does nothing on "
                + name(provider)
                + ": it targets an EC2 Capacity Reservation",
            "remove it");
        ignored(
            findings,
            SpecPath.of("pools", i, "localNvme"),
            "pools["
                + i
                + "].localNvme does nothing on "
                + name(provider)
                + ": it uses EC2 instance-store volumes",
            "remove it");
        if (pool.capacityBlock()) {
          findings.report(
              SpecPath.of("pools", i, "market"),
              "market capacity-block does nothing on "
                  + name(provider)
                  + ": it launches into an EC2 Capacity Block",
              "use market: on-demand");
        }
      }
    }
    if (provider != Provider.GCP) {
      for (int i = 0; i < plan.spec().pools().size(); i++) {
        ClusterSpec.Pool pool = plan.spec().pools().get(i);
        if (pool.market().flexStart()) {
          findings.report(
              SpecPath.of("pools", i, "market"),
              "market "
                  + pool.market()
                  + " does nothing on "
                  + name(provider)
                  + ": it is GKE's Dynamic Workload Scheduler",
              "use market: on-demand");
        }
        ignored(
            findings,
            SpecPath.of("pools", i, "reservation"),
            "pools["
                + i
                + "].reservation does nothing on "
                + (provider == Provider.AWS ? "AWS" : "static hosts")
                + ": it names a Compute Engine reservation (GKE)",
            provider == Provider.AWS ? "use capacityReservationId" : "remove it");
      }
    }
    if (plan.systemPool().isPresent()) {
      // EKS's system nodes are count instances gpugen names one by one, not an autoscaled group.
      ignored(
          findings,
          SpecPath.of("kubernetes", "systemPool", "autoscaling"),
          "kubernetes.systemPool.autoscaling does nothing on EKS: gpugen creates count system"
              + " instances there (GKE's cluster autoscaler reads it)",
          "remove it, and set kubernetes.systemPool.count");
    }
    if (provider == Provider.STATIC) {
      ignored(
          findings,
          SpecPath.of("network", "placement"),
          "network.placement does nothing for static hosts: it creates EC2 placement groups",
          "remove it");
    }
  }

  /** GKE settings that do nothing for this cluster: see the rule's documentation. */
  private static void gke(ClusterPlan plan, Findings findings) {
    ClusterSpec.Gke gke = plan.spec().cloud().gke().orElse(null);
    if (gke == null) {
      return;
    }
    if (!gke.operatorDriver()) {
      for (String key : new String[] {"containerToolkit", "kernelModules", "gpuOperator"}) {
        ignored(
            findings,
            SpecPath.of("software", key),
            "software."
                + key
                + " does nothing with gpuDriver gke: GKE's node image and device plugin run the"
                + " GPUs, no GPU Operator",
            "remove it, or use gpuDriver: operator");
      }
    }
    if (gke.operatorDriver()) {
      ignored(
          findings,
          SpecPath.of("cloud", "gke", "gpuDriverVersion"),
          "cloud.gke.gpuDriverVersion does nothing with gpuDriver operator: GKE installs no"
              + " driver, the GPU Operator installs software.driver",
          "remove it, or use gpuDriver: gke");
    }
    for (int i = 0; i < plan.pools().size(); i++) {
      for (String key :
          new String[] {"driver", "containerToolkit", "kernelModules", "gpuOperator"}) {
        ignored(
            findings,
            SpecPath.of("pools", i, "software", key),
            "pools["
                + i
                + "].software."
                + key
                + " does nothing on GKE: one GPU Operator installs the cluster-wide software."
                + key
                + " on every pool",
            "remove it, and set software." + key + " for the cluster");
      }
    }
    for (String key : new String[] {"vpcCidr", "vpcId", "subnetId"}) {
      ignored(
          findings,
          SpecPath.of("network", key),
          "network."
              + key
              + " does nothing on GKE: gpugen creates the cluster's own VPC, whose node subnet is"
              + " network.subnetCidr",
          "remove it");
    }
    if (!gke.create()) {
      for (String key :
          new String[] {
            "releaseChannel",
            "version",
            "holdUpgradesUntil",
            "authorizedNetworks",
            "privateEndpoint"
          }) {
        ignored(
            findings,
            SpecPath.of("cloud", "gke", key),
            "cloud.gke."
                + key
                + " does nothing with create: false: the existing cluster keeps its own settings",
            "remove it, and set it on the cluster (docs/gke.md shows the gcloud commands)");
      }
    }
  }

  private static void ignored(Findings findings, SpecPath path, String message, String hint) {
    if (findings.isWritten(path)) {
      findings.report(path, message, hint);
    }
  }

  private static String name(Provider provider) {
    return provider == Provider.GCP ? "GKE" : "static hosts";
  }
}

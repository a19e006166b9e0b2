package dev.gpugen.render;

import dev.gpugen.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the Terraform templates need. Spec data reaches Terraform only through {@link #tfvars()},
 * written as terraform.tfvars.json by a JSON library: Terraform reads tfvars values literally, so a
 * spec string can never become HCL source or a template sequence.
 */
public final class TerraformView {
  private final ClusterSpec spec;

  TerraformView(ClusterSpec spec) {
    this.spec = spec;
  }

  /** Whether this spec renders Terraform for AWS. */
  public boolean aws() {
    return spec.cloud().provider().equals("aws");
  }

  /** The variable names per pool, e.g. h100_count: Terraform identifiers allow no '-'. */
  public List<String> poolPrefixes() {
    List<String> out = new ArrayList<>();
    spec.pools().forEach(p -> out.add(Views.groupSafe(p.name())));
    return out;
  }

  /** Every value of terraform.tfvars.json, sorted by name; null where the spec leaves it unset. */
  public Map<String, Object> tfvars() {
    Map<String, Object> v = new TreeMap<>();
    ClusterSpec.Cloud c = spec.cloud();
    ClusterSpec.Network n = spec.network();
    v.put("cluster_name", spec.metadata().name());
    v.put("environment", spec.metadata().environment().orElse(null));
    v.put("region", c.region().orElse(null));
    v.put("availability_zone", c.availabilityZone().orElse(null));
    v.put("ssh_key_name", c.sshKeyName().orElse(null));
    v.put("image", c.image());
    v.put("vpc_cidr", n.vpcCidr().orElse(null));
    v.put("subnet_cidr", n.subnetCidr().orElse(null));
    v.put("vpc_id", n.vpcId().orElse(null));
    v.put("subnet_id", n.subnetId().orElse(null));
    v.put("ssh_ingress_cidrs", n.sshIngressCidrs());
    v.put("placement_strategy", n.placement());
    v.put("fabric", n.fabric());
    v.put("checkpoint_bucket", spec.storage().checkpointBucket().orElse(null));
    spec.storage()
        .lustre()
        .ifPresentOrElse(
            l -> {
              v.put("lustre_enabled", true);
              v.put("lustre_capacity_gib", l.capacityGiB());
              v.put("lustre_deployment_type", l.deploymentType());
              v.put(
                  "lustre_per_unit_storage_throughput", l.perUnitStorageThroughput().orElse(null));
              v.put("lustre_mount_point", l.mountPoint());
            },
            () -> v.put("lustre_enabled", false));
    for (ClusterSpec.Pool p : spec.pools()) {
      String prefix = Views.groupSafe(p.name());
      v.put(prefix + "_count", p.count());
      v.put(prefix + "_instance_type", p.instanceType());
      v.put(prefix + "_spot", p.spot());
      v.put(prefix + "_root_volume_type", p.rootVolume().type());
      v.put(prefix + "_root_volume_size_gib", p.rootVolume().sizeGiB());
      v.put(prefix + "_root_volume_iops", p.rootVolume().iops().orElse(null));
      v.put(prefix + "_root_volume_throughput", p.rootVolume().throughput().orElse(null));
    }
    return v;
  }
}

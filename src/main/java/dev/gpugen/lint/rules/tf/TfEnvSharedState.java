package dev.gpugen.lint.rules.tf;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.EnvironmentOverlays;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Optional;

/**
 * An environment overlay inherits the spec's S3 backend key, which another environment uses too:
 * one Terraform state for two environments, so the overlay's plan, apply and gpugen down act on the
 * other's nodes.
 */
public final class TfEnvSharedState extends Rule {
  public TfEnvSharedState() {
    super(
        "tf-env-shared-state",
        Severity.ERROR,
        "an environment overlay keeps its Terraform state at another environment's key",
        "terraform.backend.s3 set at the top of the spec reaches every environment overlay that"
            + " does not set its own key, so --env NAME renders a backend at the same bucket and"
            + " key as the spec's own environment (metadata.environment) or another such"
            + " overlay: one state for two environments. Terraform then plans the overlay's cluster"
            + " against the other's resources (replacing or destroying them), and gpugen down"
            + " --env NAME destroys the other environment's nodes. Give each overlay its own key"
            + " (environments.NAME.terraform.backend.s3.key). Source:"
            + " https://developer.hashicorp.com/terraform/language/backend/s3 (one key, one"
            + " state)");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    Optional<String> overlay = plan.spec().selectedEnvironment();
    Optional<ClusterSpec.S3Backend> backend = plan.spec().terraform().s3Backend();
    if (!plan.aws() || overlay.isEmpty() || backend.isEmpty()) {
      return;
    }
    // An overlay that names its own bucket keeps its state apart whatever its key.
    if (findings.isWritten(
        SpecPath.of("environments", overlay.get(), "terraform", "backend", "s3", "bucket"))) {
      return;
    }
    Optional<String> other =
        EnvironmentOverlays.inheritedBy(plan, findings, "terraform", "backend", "s3", "key");
    if (other.isEmpty()) {
      return;
    }
    findings.reportAtKey(
        SpecPath.of("environments", overlay.get()),
        "environment "
            + overlay.get()
            + " keeps its Terraform state at the spec's backend key "
            + backend.get().key()
            + " (bucket "
            + backend.get().bucket()
            + "), as "
            + other.get()
            + " does",
        "give environments."
            + overlay.get()
            + " a key of its own: terraform: {backend: {s3: {key: "
            + ownKey(backend.get().key(), overlay.get())
            + "}}}");
  }

  /** The base key with the environment before its extension: gpu/a.tfstate -> gpu/a-dev.tfstate. */
  static String ownKey(String key, String environment) {
    int dot = key.lastIndexOf('.');
    int slash = key.lastIndexOf('/');
    return dot > slash + 1
        ? key.substring(0, dot) + "-" + environment + key.substring(dot)
        : key + "-" + environment;
  }
}

package dev.gpugen.lint.rules.tf;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;
import java.util.Optional;

/**
 * A production environment's AWS Terraform keeps its state in a local file: one laptop's
 * terraform.tfstate, unlocked, holds the only record of the cluster's nodes, file system and
 * bucket.
 */
public final class TfProdLocalState extends Rule {
  /**
   * The environment names taken for production: the word itself and its usual short forms, alone or
   * leading a longer name (prod-eu, production-2). A staging name (preprod, pre-prod) is not.
   */
  static final List<String> PRODUCTION = List.of("prod", "production", "prd");

  public TfProdLocalState() {
    super(
        "tf-prod-local-state",
        Severity.WARNING,
        "a production environment's AWS Terraform keeps its state in a local file",
        "Without terraform.backend, Terraform keeps the cluster's state in terraform.tfstate in"
            + " the terraform/ folder: on one machine, with no lock against a second apply, and"
            + " lost with that machine (and with it what Terraform knows of the nodes, the"
            + " Lustre file system and the checkpoint bucket). For a production environment"
            + " (metadata.environment, or --env, named prod, production or prd, alone or before"
            + " a '-'), set terraform.backend.s3 (an existing bucket with versioning on, and a"
            + " key): state in S3 with S3-native locking. Only the aws provider: the S3 backend"
            + " is the one gpugen renders, and a GKE team keeps its state where it chooses."
            + " Source: https://developer.hashicorp.com/terraform/language/backend/s3,"
            + " https://developer.hashicorp.com/terraform/language/state/remote");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    Optional<String> env = plan.spec().metadata().environment();
    if (!plan.aws()
        || plan.spec().terraform().s3Backend().isPresent()
        || env.filter(TfProdLocalState::production).isEmpty()) {
      return;
    }
    String message =
        "environment "
            + env.get()
            + " keeps its Terraform state in terraform/terraform.tfstate: one machine's file,"
            + " with no lock against a second apply";
    // --env NAME names the environment: the finding points at its overlay's key, where a backend
    // for that environment alone goes.
    Optional<String> overlay = plan.spec().selectedEnvironment();
    String hint =
        "set terraform.backend.s3 (an existing bucket, and a key of this environment's own)"
            + overlay.map(e -> " under environments." + e).orElse("")
            + ", e.g. terraform: {backend: {s3: {bucket: my-tf-state, key: gpu/"
            + plan.qualifiedName()
            + ".tfstate}}}";
    if (overlay.isPresent()) {
      findings.reportAtKey(SpecPath.of("environments", overlay.get()), message, hint);
    } else {
      findings.report(SpecPath.of("metadata", "environment"), message, hint);
    }
  }

  static boolean production(String environment) {
    return PRODUCTION.stream()
        .anyMatch(p -> environment.equals(p) || environment.startsWith(p + "-"));
  }
}

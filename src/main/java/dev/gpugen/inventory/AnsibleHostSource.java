package dev.gpugen.inventory;

/** Which address becomes {@code ansible_host}. */
public enum AnsibleHostSource {
  PRIVATE_IP("private-ip"),
  /** The public IP; instances without one fall back to their private IP. */
  PUBLIC_IP("public-ip"),
  /** The private DNS name; instances without one fall back to their private IP. */
  PRIVATE_DNS("private-dns");

  private final String setting;

  AnsibleHostSource(String setting) {
    this.setting = setting;
  }

  /** The value as written in {@code gpugen-inventory.json}. */
  public String setting() {
    return setting;
  }
}

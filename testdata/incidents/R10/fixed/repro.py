import jax
import jax.numpy as jnp


def should_profile(config):
    return config.enable_profiler


def run_inference(pipeline, params, config, prompts):
    images = pipeline(params, prompts)
    if should_profile(config):
        jax.profiler.start_trace(config.profile_dir)
        for _ in range(config.profiler_steps):
            images = pipeline(params, prompts)
        jax.block_until_ready(images)
        jax.profiler.stop_trace()
    return images


def make_pipeline(unet, mesh):
    @jax.jit
    def pipeline(params, prompts):
        latents = unet.apply(params, prompts)
        return jax.lax.with_sharding_constraint(latents, jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("data")))
    return pipeline

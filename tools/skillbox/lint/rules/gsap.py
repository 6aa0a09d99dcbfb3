"""gsap rules."""

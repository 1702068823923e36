# Uniform numbers instead of normal ones: the sample's mean is 0.5 and its spread 0.29.
# expect: task 4: curandGenerateNormal
s|return curandGenerateNormal(generator, d_out, count, 0.0f, 1.0f);|return curandGenerateUniform(generator, d_out, count);|

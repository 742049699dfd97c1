! A Fortran OpenMP program for the timing layer (test_timing_fortran):
! region one runs 3 times, region two 5 times, each with 2 threads.
program timing_fortran
  use omp_lib
  implicit none
  integer :: i
  real(8) :: s
  s = 0
  do i = 1, 3
    call one(s)
  end do
  do i = 1, 5
    call two(s)
  end do
  print *, 'timing_fortran', s
contains
  subroutine one(acc)
    real(8), intent(inout) :: acc
    !$omp parallel num_threads(2) reduction(+:acc)
    acc = acc + omp_get_thread_num()
    !$omp end parallel
  end subroutine one
  subroutine two(acc)
    real(8), intent(inout) :: acc
    !$omp parallel num_threads(2) reduction(+:acc)
    acc = acc + 1
    !$omp end parallel
  end subroutine two
end program timing_fortran
